import { startChild, type Child } from './child-process';
import type { ClosedLoopResult } from './closed-loop';
import { round } from './stats';
import type { RequestSpec } from './request-makers';

export interface LoadSpec {
  /** http://127.0.0.1:port of the server under test; several: its processes, loaded in turn. */
  origin: string | readonly string[];
  /** Requests in flight, one connection each. */
  connections: number;
  warmupMs: number;
  durationMs: number;
  maxRequests: number;
  request: RequestSpec;
  /** The status a correct answer has; anything else counts as a failure. */
  expectStatus: number;
}

export type LoadResult = ClosedLoopResult & {
  statuses: Record<string, number>;
  /** CPU the server under test spent per answered request (µs), warm-up included: steadier than req/s on a busy machine. */
  serverCpuMicrosPerRequest?: number;
};

/** Answers outside the expected status beyond this share mean the server is misbehaving, not slow. */
const MAX_FAILURE_SHARE = 0.001;

/** A load generator in its own process, reused across runs. */
export class LoadGenerator {
  private constructor(private readonly child: Child<{ pid: number }>) {}

  static async start(): Promise<LoadGenerator> {
    return new LoadGenerator(await startChild(new URL('./load-worker.ts', import.meta.url), {}));
  }

  /** Loads the server at `spec.origin`; given the server's process(es), also reports their CPU per request. */
  async run(spec: LoadSpec, server?: Child<unknown> | ReadonlyArray<Child<unknown>>): Promise<LoadResult> {
    const servers = server === undefined ? [] : 'cpuMicros' in server ? [server] : server;
    const cpuOf = async () => (await Promise.all(servers.map((child) => child.cpuMicros()))).reduce((sum, micros) => sum + micros, 0);
    const cpuBefore = servers.length === 0 ? undefined : await cpuOf();
    const result = await this.child.request<LoadResult>(spec, spec.warmupMs + spec.durationMs + 15_000);
    if (result.ops === 0 || result.failures > result.ops * MAX_FAILURE_SHARE) {
      throw new Error(`${spec.origin}${spec.request.path} answered ${JSON.stringify(result.statuses)} (expected ${spec.expectStatus})`);
    }
    if (cpuBefore === undefined) return result;
    const answered = Object.values(result.statuses).reduce((sum, count) => sum + count, 0);
    return { ...result, serverCpuMicrosPerRequest: round(((await cpuOf()) - cpuBefore) / Math.max(1, answered), 1) };
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
