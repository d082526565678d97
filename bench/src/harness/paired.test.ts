import { describe, expect, it } from 'vitest';
import { cpuPairsFor, cpuRatiosOf, MIN_CPU_PAIRS } from './paired';

describe('CPU-time ratios', () => {
  it('run at least the minimum of pairs, more when BENCH_RUNS asks', () => {
    expect(cpuPairsFor(5)).toBe(MIN_CPU_PAIRS);
    expect(cpuPairsFor(MIN_CPU_PAIRS + 5)).toBe(MIN_CPU_PAIRS + 5);
  });

  it("are the baseline's CPU per operation over the subject's, pair by pair, so higher is better", () => {
    const subject = [12, 10, 11, 10, 10, 10, 10, 10, 10, 20];
    const baseline = [6, 10, 11, 10, 10, 10, 10, 10, 10, 10];
    expect(cpuRatiosOf(subject, baseline)).toEqual({ median: 1, min: 0.5, max: 1 });
  });

  it('refuse fewer pairs than the minimum', () => {
    const short = Array.from({ length: MIN_CPU_PAIRS - 1 }, () => 1);
    expect(() => cpuRatiosOf(short, short)).toThrow(/at least 10 pairs, got 9/);
  });
});
