/** How long and how hard every figure measures. Kept small: the whole suite must finish in minutes. */
export interface BenchSettings {
  /** Paired runs per ratio. */
  runs: number;
  /** Requests in flight against a server (the reference figures use 20). */
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Cap on counted operations per measurement, whatever the speed. */
  maxOps: number;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function benchSettings(): BenchSettings {
  return {
    runs: positiveInteger('BENCH_RUNS', 5),
    connections: 20,
    warmupMs: positiveInteger('BENCH_WARMUP_MS', 300),
    durationMs: positiveInteger('BENCH_DURATION_MS', 1_200),
    maxOps: 500_000,
  };
}
