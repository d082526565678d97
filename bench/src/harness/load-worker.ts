import { Pool } from 'undici';
import { serveHarness } from './child-side';
import { runClosedLoop } from './closed-loop';
import type { LoadSpec } from './load-generator';
import { requestMaker } from './request-makers';

/**
 * The load generator's process: a closed loop of undici requests against a
 * server in another process (or several: each request goes to the next). One
 * fresh pool per origin per run, closed afterwards.
 */
serveHarness(async () => ({
  ready: { pid: process.pid },
  async handle(request) {
    const spec = request as LoadSpec;
    const origins = typeof spec.origin === 'string' ? [spec.origin] : spec.origin;
    const pools = origins.map((origin) => new Pool(origin, { connections: Math.ceil(spec.connections / origins.length) }));
    let sent = 0;
    const next = requestMaker(spec.request);
    const statuses: Record<string, number> = {};
    try {
      const result = await runClosedLoop({
        concurrency: spec.connections,
        warmupMs: spec.warmupMs,
        durationMs: spec.durationMs,
        maxOps: spec.maxRequests,
        op: async () => {
          const { path, headers, body } = next();
          const response = await pools[sent++ % pools.length]!.request({ path, method: 'POST', headers, body });
          await response.body.dump();
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          return response.statusCode === spec.expectStatus;
        },
      });
      return { ...result, statuses };
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  },
}));
