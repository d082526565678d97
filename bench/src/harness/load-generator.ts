import { startChild, type Child } from './child-process';
import type { ClosedLoopResult } from './closed-loop';
import type { RequestSpec } from './request-makers';

export interface LoadSpec {
  /** http://127.0.0.1:port of the server under test. */
  origin: string;
  /** Requests in flight, one connection each. */
  connections: number;
  warmupMs: number;
  durationMs: number;
  maxRequests: number;
  request: RequestSpec;
  /** The status a correct answer has; anything else counts as a failure. */
  expectStatus: number;
}

export type LoadResult = ClosedLoopResult & { statuses: Record<string, number> };

/** Answers outside the expected status beyond this share mean the server is misbehaving, not slow. */
const MAX_FAILURE_SHARE = 0.001;

/** A load generator in its own process, reused across runs. */
export class LoadGenerator {
  private constructor(private readonly child: Child<{ pid: number }>) {}

  static async start(): Promise<LoadGenerator> {
    return new LoadGenerator(await startChild(new URL('./load-worker.ts', import.meta.url), {}));
  }

  async run(spec: LoadSpec): Promise<LoadResult> {
    const result = await this.child.request<LoadResult>(spec, spec.warmupMs + spec.durationMs + 15_000);
    if (result.ops === 0 || result.failures > result.ops * MAX_FAILURE_SHARE) {
      throw new Error(`${spec.origin}${spec.request.path} answered ${JSON.stringify(result.statuses)} (expected ${spec.expectStatus})`);
    }
    return result;
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
