import { redisServerAvailable, startRedisServer } from '../../../tools/redis-server';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { PAYLOAD_BYTES } from '../fixtures/webhook-delivery';
import type { Figure } from '../harness/results';
import { withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { RequestSpec } from '../harness/request-makers';
import { measureRoutePair, routeFigures, startRouteBench } from './routes';

const DELIVERY: RequestSpec = { kind: 'webhook', path: '/payments/webhook', secret: WEBHOOK_SECRET, payloadBytes: PAYLOAD_BYTES };
const INSTANCES = 3;

/** Checked before a group starts: without a redis-server to start, its figures (these ids) are skipped, not failed. */
export function redisServerMissingFor(figureIds: readonly string[]): () => Promise<string | undefined> {
  return async () => (redisServerAvailable() ? undefined : `redis-server is not on PATH, so ${figureIds.join(' and ')} were not measured`);
}

export const redisServerMissing = redisServerMissingFor(['webhook-redis', 'webhook-redis-3proc']);

/**
 * POST /webhook mounted with @paymount/express deduplicating in Redis (a local
 * redis-server this figure starts and stops) vs in memory: first one app
 * process each, then three processes each behind the one load generator, as a
 * merchant scales out. Three memory stores do not share what they saw (that is
 * what Redis is for), so the second baseline is the cost, not the guarantee.
 */
export async function webhookStoreFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const redis = scope.adopt(await startRedisServer());
    const { upstream, load } = await startRouteBench(scope);
    const app = { framework: 'express' as const, upstream };
    const pair = (processes: number) =>
      measureRoutePair(scope, settings, load, app, DELIVERY, 200, [
        { name: 'redis', side: 'paymount', variant: { redisUrl: redis.url }, processes },
        { name: 'memory', side: 'paymount', processes },
      ]);
    const single = await pair(1);
    const scaled = await pair(INSTANCES);
    return [
      ...routeFigures(
        'webhook-redis',
        'POST /webhook (@paymount/express, distinct signed 1 KiB deliveries) deduplicated in a local redis-server vs in memory, one app process each',
        single,
        { throughput: 0.5 },
      ),
      ...routeFigures(
        'webhook-redis-3proc',
        `the same with ${INSTANCES} app processes per side behind one load generator: one shared redis-server vs ${INSTANCES} unshared memory stores`,
        scaled,
        { throughput: 0.5 },
      ),
    ];
  });
}
