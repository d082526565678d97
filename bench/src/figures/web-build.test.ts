import { describe, expect, it } from 'vitest';
import { MIN_CPU_PAIRS } from '../harness/paired';
import { meetsTarget } from '../harness/results';
import { webBuildFiguresOf } from './web-build';

const pairs = (value: number) => Array.from({ length: MIN_CPU_PAIRS }, () => value);

describe('the web build figures', () => {
  const figures = (clientCalls: number, verifyMicros: number, timedCalls = 800) =>
    webBuildFiguresOf({ paymount: pairs(clientCalls), bare: pairs(1000), timed: pairs(timedCalls) }, { paymount: pairs(verifyMicros), bare: pairs(10) }, 1024, 20);
  const byId = (all: ReturnType<typeof figures>) => new Map(all.map((figure) => [figure.id, figure]));

  it('hold Web Crypto verification to 0.8 of the bare CPU per delivery, and report the fetch transport against a fetch that cannot time out', () => {
    const met = byId(figures(900, 12.5));
    expect([met.get('webhook-verify-web')!.ratio.median, meetsTarget(met.get('webhook-verify-web')!)]).toEqual([0.8, true]);
    expect(meetsTarget(byId(figures(899, 13)).get('webhook-verify-web')!)).toBe(false);
    const untimed = met.get('client-fetch-vs-fetch')!;
    expect([untimed.ratio.median, untimed.target]).toEqual([0.9, null]);
  });

  it('report the fetch transport against a bare fetch that can time out, and what the signal costs the bare fetch', () => {
    const all = byId(figures(720, 10, 800));
    const timed = all.get('client-fetch-vs-timed-fetch')!;
    expect([timed.ratio.median, timed.target]).toEqual([0.9, null]);
    const signal = all.get('fetch-signal-cost')!;
    expect([signal.ratio.median, signal.target]).toEqual([0.8, null]);
  });
});
