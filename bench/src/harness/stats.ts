export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Rounds for display and JSON: ratios keep three decimals, which is already below the noise. */
export function round(value: number, decimals = 3): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function spreadOf(values: readonly number[], decimals = 3): Spread {
  if (values.length === 0) throw new RangeError('spreadOf: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median: round(median, decimals), min: round(sorted[0]!, decimals), max: round(sorted[sorted.length - 1]!, decimals) };
}

/** Nearest-rank percentile of an already sorted sample. */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}
