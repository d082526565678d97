import { CREATE_SESSION_PATH, CREDENTIALS } from '../fixtures/shop';
import { LoadGenerator, type LoadResult } from '../harness/load-generator';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';

/**
 * Figure 4: create-session calls per second served by @paymount/sandbox
 * (every rule checked, rate limit off) vs a bare node:http server answering
 * the same envelope. Every call is authenticated and carries fresh ids.
 */
export async function sandboxFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const servers = {
      sandbox: await scope.start<{ url: string }>(subject('sandbox-server')),
      bare: await scope.start<{ url: string }>(subject('envelope-server')),
    };
    const load = scope.adopt(await LoadGenerator.start());
    const spec = (side: keyof typeof servers, warmupMs: number) => ({
      origin: servers[side].ready.url,
      connections: settings.connections,
      warmupMs,
      durationMs: settings.durationMs,
      maxRequests: settings.maxOps,
      request: { kind: 'create-session' as const, path: CREATE_SESSION_PATH, ...CREDENTIALS },
      expectStatus: 200,
    });
    for (const side of ['sandbox', 'bare'] as const) await load.run({ ...spec(side, 0), durationMs: 4 * settings.warmupMs });
    const runs = await pairedRuns<LoadResult>(
      settings.runs,
      (['sandbox', 'bare'] as const).map((side) => ({ name: side, measure: () => load.run(spec(side, settings.warmupMs), servers[side]) })),
    );
    const rps = (side: string) => runs.get(side)!.map((result) => result.opsPerSecond);
    const cpu = (side: string) => absoluteOf(runs.get(side)!.map((result) => result.serverCpuMicrosPerRequest ?? Number.NaN), 'server CPU µs/request');
    return [
      {
        id: 'sandbox-vs-bare',
        what: 'create-session calls/s served by @paymount/sandbox vs a bare node:http server answering the same envelope',
        ratio: ratiosOf(rps('sandbox'), rps('bare')),
        target: 0.5,
        higherIsBetter: true,
        absolute: {
          sandbox: { throughput: absoluteOf(rps('sandbox'), 'req/s'), cpu: cpu('sandbox') },
          bare: { throughput: absoluteOf(rps('bare'), 'req/s'), cpu: cpu('bare') },
        },
      },
    ];
  });
}
