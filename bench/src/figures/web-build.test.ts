import { describe, expect, it } from 'vitest';
import type { ClosedLoopResult } from '../harness/closed-loop';
import { MIN_CPU_PAIRS } from '../harness/paired';
import { meetsTarget } from '../harness/results';
import { webBuildFiguresOf } from './web-build';

const pairs = (value: number) => Array.from({ length: MIN_CPU_PAIRS }, () => value);
/** Closed-loop runs whose caller spent `cpuMicros` per call. */
const runs = (cpuMicros: number): ClosedLoopResult[] =>
  pairs(cpuMicros).map((cpuMicrosPerOp) => ({ ops: 1000, failures: 0, elapsedMs: 1000, opsPerSecond: 1000, latencyMs: { p50: 1, p99: 2, max: 3 }, cpuMicrosPerOp }));

describe('the web build figures', () => {
  const figures = (transportMicros: number, { paymountMicros = 360, timedMicros = 330, bareMicros = 300, verifyMicros = 12.5 } = {}) =>
    new Map(
      webBuildFiguresOf(
        new Map([
          ['fetch-transport', runs(transportMicros)],
          ['paymount-fetch', runs(paymountMicros)],
          ['fetch', runs(bareMicros)],
          ['fetch-with-timeout', runs(timedMicros)],
        ]),
        { paymount: pairs(verifyMicros), bare: pairs(10) },
        1024,
        20,
      ).map((figure) => [figure.id, figure]),
    );

  it("hold the fetch transport to 0.9 of a bare fetch that can time out, in the caller's CPU per call", () => {
    const met = figures(366.6).get('fetch-transport-vs-timed-fetch')!;
    expect([met.ratio.median, met.target, meetsTarget(met)]).toEqual([0.9, 0.9, true]);
    expect(meetsTarget(figures(367.5).get('fetch-transport-vs-timed-fetch')!)).toBe(false);
    expect(met.absolute).toMatchObject({ cpuPerCall: { transport: { median: 366.6 }, timed: { median: 330 } }, inFlight: 20 });
  });

  it('report the transport against a fetch that cannot time out, and what a time limit alone costs that fetch', () => {
    const all = figures(340);
    const untimed = all.get('fetch-transport-vs-fetch')!;
    expect([untimed.ratio.median, untimed.target]).toEqual([0.882, null]);
    const timeout = all.get('fetch-timeout-cost')!;
    expect([timeout.ratio.median, timeout.target]).toEqual([0.909, null]);
    expect(timeout.absolute).toMatchObject({ cpuPerCall: { timed: { median: 330 }, bare: { median: 300 } } });
  });

  it('report the whole client against both bare calls, its own target being counted in instructions', () => {
    const all = figures(340, { paymountMicros: 375 });
    expect([all.get('client-fetch-vs-fetch')!.ratio.median, all.get('client-fetch-vs-fetch')!.target]).toEqual([0.8, null]);
    expect([all.get('client-fetch-vs-timed-fetch')!.ratio.median, all.get('client-fetch-vs-timed-fetch')!.target]).toEqual([0.88, null]);
    expect(all.get('client-fetch-vs-timed-fetch')!.absolute).toMatchObject({ cpuPerCall: { paymount: { median: 375 }, timed: { median: 330 } } });
  });

  it('refuse a fetch figure from fewer CPU pairs than every CPU-time figure takes', () => {
    const short = (micros: number) => runs(micros).slice(1);
    const client = new Map([['fetch-transport', short(340)], ['paymount-fetch', short(360)], ['fetch', short(300)], ['fetch-with-timeout', short(330)]]);
    expect(() => webBuildFiguresOf(client, { paymount: pairs(12), bare: pairs(10) }, 1024, 20)).toThrow(/at least/);
  });

  it('hold Web Crypto verification to 0.8 of the bare CPU per delivery', () => {
    const met = figures(366.6).get('webhook-verify-web')!;
    expect([met.ratio.median, meetsTarget(met)]).toEqual([0.8, true]);
    expect(meetsTarget(figures(366.6, { verifyMicros: 13 }).get('webhook-verify-web')!)).toBe(false);
  });
});
