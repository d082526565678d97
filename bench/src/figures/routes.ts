import type { Child } from '../harness/child-process';
import { LoadGenerator, type LoadResult } from '../harness/load-generator';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope, type ProcessScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { RequestSpec } from '../harness/request-makers';
import { ORDER_IDS } from '../fixtures/shop';
import type { AppVariant } from '../subjects/apps/paymount-options';
import type { Framework, MerchantAppArgs, RouteSide } from '../subjects/merchant-app';

const FRAMEWORKS: ReadonlyArray<{ framework: Framework; label: string; adapter: string }> = [
  { framework: 'express', label: 'Express 5', adapter: '@paymount/express' },
  { framework: 'koa', label: 'Koa 3', adapter: '@paymount/koa' },
  { framework: 'fastify', label: 'Fastify 5', adapter: '@paymount/fastify' },
  { framework: 'nest', label: 'NestJS 11', adapter: '@paymount/nestjs' },
  { framework: 'nest-fastify', label: 'NestJS 11 on Fastify', adapter: '@paymount/nestjs on Fastify' },
];

const CHECKOUT_REQUEST: RequestSpec = { kind: 'checkout', path: '/payments/checkout', orderIds: ORDER_IDS };

/** One side of a route pair: the app it runs, in `processes` processes (default 1) loaded in turn. */
export interface RoutePairSide {
  name: string;
  side: RouteSide;
  variant?: AppVariant;
  processes?: number;
}

const PAYMOUNT_VS_HANDWRITTEN: readonly RoutePairSide[] = [
  { name: 'paymount', side: 'paymount' },
  { name: 'handwritten', side: 'handwritten' },
];

/** What every route figure starts first: the stub the apps call as the service, and the load generator. */
export async function startRouteBench(scope: ProcessScope): Promise<{ upstream: string; load: LoadGenerator }> {
  const stub = await scope.start<{ url: string }>(subject('envelope-server'));
  return { upstream: stub.ready.url, load: scope.adopt(await LoadGenerator.start()) };
}

/**
 * Runs one route under load on both sides of a pair (by default the
 * paymount-mounted app and the hand-written one), each app in its own
 * process(es), the load from another. The map keeps the sides' order.
 */
export async function measureRoutePair(
  scope: ProcessScope,
  settings: BenchSettings,
  load: LoadGenerator,
  app: { framework: Framework; upstream: string },
  request: RequestSpec,
  expectStatus: number,
  sides: readonly RoutePairSide[] = PAYMOUNT_VS_HANDWRITTEN,
): Promise<Map<string, LoadResult[]>> {
  // One at a time: a busy 2-core machine starts six processes at once slower than their ready timeout.
  const servers: Array<Array<Child<{ url: string }>>> = [];
  for (const { side, variant, processes = 1 } of sides) {
    const group: Array<Child<{ url: string }>> = [];
    for (let started = 0; started < processes; started++) {
      group.push(await scope.start<{ url: string }>(subject('merchant-app'), { ...app, side, variant } satisfies MerchantAppArgs));
    }
    servers.push(group);
  }
  const spec = (index: number, warmupMs: number) => ({
    origin: servers[index]!.map((server) => server.ready.url),
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
    sides.map(({ name }, index) => ({ name, measure: () => load.run(spec(index, settings.warmupMs), servers[index]) })),
  );
}

/** Throughput and p99 figures of one paired route measurement: its first side over its second. */
export function routeFigures(
  id: string,
  what: string,
  runs: Map<string, LoadResult[]>,
  targets: { throughput: number; p99?: number },
): Figure[] {
  const [[subjectName, paymount], [baselineName, handwritten]] = [...runs] as [[string, LoadResult[]], [string, LoadResult[]]];
  const rps = (results: LoadResult[]) => results.map((result) => result.opsPerSecond);
  const p99 = (results: LoadResult[]) => results.map((result) => result.latencyMs.p99);
  const cpu = (results: LoadResult[]) => absoluteOf(results.map((result) => result.serverCpuMicrosPerRequest ?? Number.NaN), 'server CPU µs/request');
  const absolute = {
    [subjectName]: { throughput: absoluteOf(rps(paymount), 'req/s'), p99: absoluteOf(p99(paymount), 'ms'), cpu: cpu(paymount) },
    [baselineName]: { throughput: absoluteOf(rps(handwritten), 'req/s'), p99: absoluteOf(p99(handwritten), 'ms'), cpu: cpu(handwritten) },
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
    const { upstream, load } = await startRouteBench(scope);
    const figures: Figure[] = [];
    // BENCH_FRAMEWORKS=fastify,nest-fastify measures some frameworks alone.
    const only = process.env['BENCH_FRAMEWORKS']?.split(',');
    for (const { framework, label, adapter } of FRAMEWORKS.filter(({ framework }) => only?.includes(framework) ?? true)) {
      const runs = await measureRoutePair(scope, settings, load, { framework, upstream }, CHECKOUT_REQUEST, 201);
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
