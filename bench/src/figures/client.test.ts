import { describe, expect, it } from 'vitest';
import type { ClosedLoopResult } from '../harness/closed-loop';
import { MIN_CPU_PAIRS } from '../harness/paired';
import { missedFigures } from '../harness/results';
import type { ClientSide } from '../subjects/client-calls';
import { clientFiguresOf, type SideRuns } from './client';

/** A side whose every pair spent `cpuMicrosPerOp` per call and reached `opsPerSecond`. */
function side(cpuMicrosPerOp: number, opsPerSecond = 1e6 / cpuMicrosPerOp): ClosedLoopResult[] {
  return Array.from({ length: MIN_CPU_PAIRS }, () => ({
    ops: opsPerSecond,
    failures: 0,
    elapsedMs: 1000,
    opsPerSecond,
    latencyMs: { p50: 1, p99: 2, max: 3 },
    cpuMicrosPerOp,
  }));
}

const lifecycle: SideRuns = new Map([
  ['paymount-refund', side(50)],
  ['undici-refund', side(45)],
  ['paymount-query', side(50)],
  ['undici-query', side(45)],
]);

function figuresFor(telemetry: ClosedLoopResult[], sdkWork: ClosedLoopResult[]) {
  const session: SideRuns = new Map([
    ['paymount', side(44)],
    ['undici', side(40)],
    ['axios', side(200)],
    ['paymount-no-telemetry', side(40)],
    ['paymount-telemetry', telemetry],
    ['paymount-sdk-work', sdkWork],
    ['paymount-telemetry-sampled', side(45)],
  ] satisfies Array<[ClientSide, ClosedLoopResult[]]>);
  return clientFiguresOf(session, lifecycle, 20);
}

const byId = (figures: ReturnType<typeof figuresFor>, id: string) => figures.find((figure) => figure.id === id)!;

describe('the client telemetry figures', () => {
  it("report telemetry on against the SDK work done by hand on the caller's CPU per call, held to no target (client-telemetry is counted)", () => {
    const figures = figuresFor(side(64), side(60));
    expect(byId(figures, 'client-telemetry-cpu').ratio.median).toBeCloseTo(60 / 64, 3);
    expect(byId(figures, 'client-telemetry-cpu').target).toBeNull();
    expect(figures.map((figure) => figure.id)).not.toContain('client-telemetry');
    expect(missedFigures(figures)).toEqual([]);
  });

  it('are not moved by how many calls/s a busy machine let each side make', () => {
    const figures = figuresFor(side(60, 3_000), side(60, 9_000));
    expect(byId(figures, 'client-telemetry-cpu').ratio.median).toBe(1);
  });

  it("report the SDK's own cost against telemetry off, in calls/s, held to no target", () => {
    const sdkWork = byId(figuresFor(side(62), side(50)), 'client-telemetry-sdk-work');
    expect(sdkWork.ratio.median).toBeCloseTo(40 / 50, 3);
    expect(sdkWork.target).toBeNull();
  });
});
