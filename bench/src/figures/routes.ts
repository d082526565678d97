import { LoadGenerator, type LoadResult } from '../harness/load-generator';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope, type ProcessScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { RequestSpec } from '../harness/request-makers';
import { ORDER_IDS } from '../fixtures/shop';
import type { Framework, RouteSide } from '../subjects/merchant-app';

const FRAMEWORKS: ReadonlyArray<{ framework: Framework; label: string; adapter: string }> = [
  { framework: 'express', label: 'Express 5', adapter: '@paymount/express' },
  { framework: 'koa', label: 'Koa 3', adapter: '@paymount/koa' },
  { framework: 'fastify', label: 'Fastify 5', adapter: '@paymount/fastify' },
  { framework: 'nest', label: 'NestJS 11', adapter: '@paymount/nestjs' },
  { framework: 'nest-fastify', label: 'NestJS 11 on Fastify', adapter: '@paymount/nestjs on Fastify' },
];

const CHECKOUT_REQUEST: RequestSpec = { kind: 'checkout', path: '/payments/checkout', orderIds: ORDER_IDS };

/**
 * Runs one route under load on both sides of a pair: the paymount-mounted app
 * and the hand-written one, each in its own process, the load from a third.
 */
export async function measureRoutePair(
  scope: ProcessScope,
  settings: BenchSettings,
  load: LoadGenerator,
  app: { framework: Framework; upstream: string },
  request: RequestSpec,
  expectStatus: number,
): Promise<Map<string, LoadResult[]>> {
  const sides = (['paymount', 'handwritten'] as const satisfies readonly RouteSide[]).map((side) => ({ side, args: { ...app, side } }));
  const servers = await Promise.all(sides.map(({ args }) => scope.start<{ url: string }>(subject('merchant-app'), args)));
  const spec = (index: number, warmupMs: number) => ({
    origin: servers[index]!.ready.url,
    connections: settings.connections,
    warmupMs,
    durationMs: settings.durationMs,
    maxRequests: settings.maxOps,
    request,
    expectStatus,
  });
  // One long warm-up each before the pairs, so the first pair does not measure the JIT.
  for (const index of sides.keys()) await load.run({ ...spec(index, 0), durationMs: 4 * settings.warmupMs });
  return pairedRuns(
    settings.runs,
    sides.map(({ side }, index) => ({ name: side, measure: () => load.run(spec(index, settings.warmupMs), servers[index]) })),
  );
}

/** Throughput and p99 figures of one paired route measurement. */
export function routeFigures(
  id: string,
  what: string,
  runs: Map<string, LoadResult[]>,
  targets: { throughput: number; p99?: number },
): Figure[] {
  const paymount = runs.get('paymount')!;
  const handwritten = runs.get('handwritten')!;
  const rps = (results: LoadResult[]) => results.map((result) => result.opsPerSecond);
  const p99 = (results: LoadResult[]) => results.map((result) => result.latencyMs.p99);
  const cpu = (results: LoadResult[]) => absoluteOf(results.map((result) => result.serverCpuMicrosPerRequest ?? Number.NaN), 'server CPU µs/request');
  const absolute = {
    paymount: { throughput: absoluteOf(rps(paymount), 'req/s'), p99: absoluteOf(p99(paymount), 'ms'), cpu: cpu(paymount) },
    handwritten: { throughput: absoluteOf(rps(handwritten), 'req/s'), p99: absoluteOf(p99(handwritten), 'ms'), cpu: cpu(handwritten) },
  };
  const figures: Figure[] = [
    { id, what: `${what} (req/s)`, ratio: ratiosOf(rps(paymount), rps(handwritten)), target: targets.throughput, higherIsBetter: true, absolute },
  ];
  if (targets.p99 !== undefined) {
    figures.push({
      id: `${id}-p99`,
      what: `${what} (p99 latency)`,
      ratio: ratiosOf(p99(paymount), p99(handwritten)),
      target: targets.p99,
      higherIsBetter: false,
      absolute,
    });
  }
  return figures;
}

/**
 * Figure 2: POST /checkout mounted with each adapter, against the local stub
 * as the service, vs a hand-written route on the same framework making the
 * same undici call. 20 requests in flight.
 */
export async function routeCheckoutFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const load = scope.adopt(await LoadGenerator.start());
    const figures: Figure[] = [];
    // BENCH_FRAMEWORKS=fastify,nest-fastify measures some frameworks alone.
    const only = process.env['BENCH_FRAMEWORKS']?.split(',');
    for (const { framework, label, adapter } of FRAMEWORKS.filter(({ framework }) => only?.includes(framework) ?? true)) {
      const runs = await measureRoutePair(scope, settings, load, { framework, upstream: stub.ready.url }, CHECKOUT_REQUEST, 201);
      figures.push(
        ...routeFigures(
          `routes-${framework}`,
          `POST /checkout mounted with ${adapter} vs a hand-written ${label} route doing the same undici call`,
          runs,
          { throughput: 0.9, p99: 1.2 },
        ),
      );
    }
    return figures;
  });
}
