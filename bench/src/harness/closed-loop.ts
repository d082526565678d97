import { percentile, round } from './stats';

export interface ClosedLoopOptions {
  /** Operations kept in flight at once. */
  concurrency: number;
  /** Run but not counted: lets the JIT, the connection pools and the server settle. */
  warmupMs: number;
  durationMs: number;
  /** Hard cap on counted operations, so a run is bounded whatever the speed. */
  maxOps: number;
  /** One operation; resolves true when it succeeded. Rejections count as failures. */
  op: () => Promise<boolean>;
  /**
   * CPU used so far (µs) by the processes serving the operations, such as a
   * database server: read with this process's own at the window's two ends and
   * added into cpuMicrosPerOp, so that the figure is the whole cost of an operation.
   */
  serverCpuMicros?: () => number;
}

export interface ClosedLoopResult {
  ops: number;
  failures: number;
  elapsedMs: number;
  opsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** CPU time this process (and the server, given serverCpuMicros) spent per counted operation (user + system), a figure noise barely moves. */
  cpuMicrosPerOp: number;
}

/**
 * Keeps `concurrency` operations in flight: each slot starts the next one as
 * soon as its previous one finished. Only operations started inside the
 * measuring window count; latencies are kept in a preallocated array.
 */
export async function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const latencies = new Float64Array(options.maxOps);
  let ops = 0;
  let failures = 0;
  const warmEnd = performance.now() + options.warmupMs;
  const end = warmEnd + options.durationMs;
  let lastFinish = warmEnd;
  let cpuAtWarmEnd: NodeJS.CpuUsage | undefined;
  let serverCpuAtWarmEnd = 0;

  const slot = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= end || ops >= options.maxOps) return;
      let ok: boolean;
      try {
        ok = await options.op();
      } catch {
        ok = false;
      }
      const finished = performance.now();
      if (started < warmEnd) continue;
      if (cpuAtWarmEnd === undefined) [cpuAtWarmEnd, serverCpuAtWarmEnd] = [process.cpuUsage(), options.serverCpuMicros?.() ?? 0];
      if (ops >= options.maxOps) return;
      latencies[ops++] = finished - started;
      if (!ok) failures++;
      lastFinish = Math.max(lastFinish, finished);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, slot));

  const elapsedMs = lastFinish - warmEnd;
  const cpu = process.cpuUsage(cpuAtWarmEnd);
  const serverCpu = options.serverCpuMicros === undefined || cpuAtWarmEnd === undefined ? 0 : options.serverCpuMicros() - serverCpuAtWarmEnd;
  const sorted = latencies.subarray(0, ops).sort();
  return {
    ops,
    failures,
    elapsedMs: round(elapsedMs, 1),
    opsPerSecond: round(elapsedMs > 0 ? (ops * 1000) / elapsedMs : 0, 1),
    latencyMs: { p50: round(percentile(sorted, 0.5)), p99: round(percentile(sorted, 0.99)), max: round(percentile(sorted, 1)) },
    cpuMicrosPerOp: round(ops > 0 ? (cpu.user + cpu.system + serverCpu) / ops : 0, 1),
  };
}

export interface TimedLoopResult {
  ops: number;
  elapsedMs: number;
  opsPerSecond: number;
  /**
   * CPU time this process spent per operation (user + system): for work that
   * never waits, this is what other processes on the machine disturb least.
   */
  cpuMicrosPerOp: number;
}

/**
 * One operation after another on this thread, for CPU-only work. The clock is
 * read every `batch` operations so reading it does not weigh on cheap ones.
 */
export async function runTimedLoop(
  op: { sync: () => unknown } | { async: () => Promise<unknown> },
  durationMs: number,
  maxOps: number,
  batch = 64,
): Promise<TimedLoopResult> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const end = started + durationMs;
  let ops = 0;
  while (ops < maxOps && performance.now() < end) {
    if ('sync' in op) for (let i = 0; i < batch; i++) op.sync();
    else for (let i = 0; i < batch; i++) await op.async();
    ops += batch;
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    ops,
    elapsedMs: round(elapsedMs, 1),
    opsPerSecond: round((ops * 1000) / elapsedMs, 1),
    // Three decimals: a cheap operation takes a few µs, and one decimal would be a step of a few percent.
    cpuMicrosPerOp: round((cpu.user + cpu.system) / ops, 3),
  };
}
