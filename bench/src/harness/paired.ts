import { spreadOf, type Spread } from './stats';

export interface Side<T> {
  name: string;
  measure: () => Promise<T>;
}

/**
 * Measures every side once per run, side by side, so that whatever else the
 * machine is doing hits all of them alike. The order flips every run (A B, B A,
 * A B…) so neither side always runs first on a freshly warmed machine.
 */
export async function pairedRuns<T>(runs: number, sides: readonly Side<T>[]): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>(sides.map((side) => [side.name, []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) results.get(side.name)!.push(await side.measure());
  }
  return results;
}

/** One ratio per run: `numerator[i] / denominator[i]`, never across runs. */
export function ratiosOf(numerators: readonly number[], denominators: readonly number[]): Spread {
  if (numerators.length !== denominators.length) throw new RangeError('ratiosOf: runs do not pair up');
  return spreadOf(numerators.map((value, index) => value / denominators[index]!));
}

/**
 * Figures judged on CPU time per operation run at least this many pairs,
 * whatever BENCH_RUNS says: on a shared machine their spread over 5 pairs was
 * wider than their gap to the target.
 */
export const MIN_CPU_PAIRS = 10;

export function cpuPairsFor(runs: number): number {
  return Math.max(runs, MIN_CPU_PAIRS);
}

/**
 * One ratio per pair of CPU times per operation, the baseline's over the
 * subject's, so that higher is better as for a throughput. Refuses fewer than
 * MIN_CPU_PAIRS pairs.
 */
export function cpuRatiosOf(subject: readonly number[], baseline: readonly number[]): Spread {
  if (subject.length < MIN_CPU_PAIRS) throw new RangeError(`a CPU-time figure needs at least ${MIN_CPU_PAIRS} pairs, got ${subject.length}`);
  return ratiosOf(baseline, subject);
}
