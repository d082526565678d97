import type { Child } from './child-process';
import type { ClosedLoopResult } from './closed-loop';
import { pairedRuns } from './paired';
import type { BenchSettings } from './settings';

/**
 * Warms up one started caller process per side, then measures them in paired
 * closed-loop runs: each caller's side of a pair is one window of calls, and a
 * window with a failed call fails the figure rather than flattering it.
 */
export async function pairedCallerRuns<Side extends string>(
  callers: ReadonlyArray<Child<unknown>>,
  sides: readonly Side[],
  settings: BenchSettings,
  runCount: number,
): Promise<Map<Side, ClosedLoopResult[]>> {
  const window = { warmupMs: settings.warmupMs, durationMs: settings.durationMs, maxOps: settings.maxOps };
  // One long warm-up each before the pairs, so the first pair does not measure the JIT.
  for (const caller of callers) await caller.request({ ...window, warmupMs: 0, durationMs: 4 * settings.warmupMs }, 10 * settings.warmupMs + 15_000);
  const runs = await pairedRuns(
    runCount,
    sides.map((side, index) => ({
      name: side,
      measure: async () => {
        const result = await callers[index]!.request<ClosedLoopResult>(window, settings.warmupMs + settings.durationMs + 15_000);
        if (result.ops === 0 || result.failures > 0) throw new Error(`the ${side} client failed ${result.failures} of ${result.ops} calls`);
        return result;
      },
    })),
  );
  return runs as Map<Side, ClosedLoopResult[]>;
}
