import { setTimeout as sleep } from 'node:timers/promises';
import { createWebhookQueue } from '@paymount/bullmq';
import { silentLogger } from '@paymount/core';
import { startRedisServer } from '../../../tools/redis-server';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { PAYLOAD_BYTES } from '../fixtures/webhook-delivery';
import type { Child } from '../harness/child-process';
import type { LoadResult } from '../harness/load-generator';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { RequestSpec } from '../harness/request-makers';
import type { QueuedVariant } from '../subjects/apps/paymount-options';
import type { MerchantAppArgs } from '../subjects/merchant-app';
import type { QueueWorkerArgs, QueueWorkerRequest } from '../subjects/queue-worker';
import { measureRoutePair, startRouteBench } from './routes';
import { redisServerMissingFor } from './webhook-stores';

/** Every run's events new: a delivery is queued (or handled inline), never answered as a duplicate of an earlier run's. */
const DELIVERY: RequestSpec = { kind: 'webhook', path: '/payments/webhook', secret: WEBHOOK_SECRET, payloadBytes: PAYLOAD_BYTES, freshEvents: true };
/** The handler the issue names: longer than the service's 10 s wait for an answer. */
const SLOW_HANDLER_MS = 30_000;
const WORKER_PROCESSES = 3;
const WORKER_CONCURRENCY = 10;
const ACK_TARGET_P99 = 1.5;

export const redisServerMissing = redisServerMissingFor(['webhook-queue-ack', 'webhook-queue-ack-p99', 'webhook-queue-3workers']);

/**
 * The acknowledgement figures of a paired run, queued (first) over inline
 * (second): p50 reported, p99 held to 1.5.
 */
export function ackFiguresOf(runs: Map<string, LoadResult[]>): Figure[] {
  const [[, queued], [, inline]] = [...runs] as [[string, LoadResult[]], [string, LoadResult[]]];
  const at = (results: LoadResult[], p: 'p50' | 'p99') => results.map((result) => result.latencyMs[p]);
  const absolute = {
    queued: { p50: absoluteOf(at(queued, 'p50'), 'ms'), p99: absoluteOf(at(queued, 'p99'), 'ms') },
    inline: { p50: absoluteOf(at(inline, 'p50'), 'ms'), p99: absoluteOf(at(inline, 'p99'), 'ms') },
  };
  const what = `POST /webhook (@paymount/express, distinct signed 1 KiB deliveries, deduplicated in a local redis-server) queued on BullMQ with a ${SLOW_HANDLER_MS / 1_000} s handler vs an empty inline handler`;
  return [
    { id: 'webhook-queue-ack', what: `${what} (p50 latency)`, ratio: ratiosOf(at(queued, 'p50'), at(inline, 'p50')), target: null, higherIsBetter: false, absolute },
    { id: 'webhook-queue-ack-p99', what: `${what} (p99 latency)`, ratio: ratiosOf(at(queued, 'p99'), at(inline, 'p99')), target: ACK_TARGET_P99, higherIsBetter: false, absolute },
  ];
}

/** Events handled per second: by the queue's workers draining it, and inline by one app process answering deliveries. */
export interface ThroughputRun {
  queued: number;
  inline: number;
}

export function throughputFigureOf(runs: readonly ThroughputRun[]): Figure {
  const queued = runs.map((run) => run.queued);
  const inline = runs.map((run) => run.inline);
  return {
    id: 'webhook-queue-3workers',
    what: `events handled per second by ${WORKER_PROCESSES} worker processes (concurrency ${WORKER_CONCURRENCY} each, empty handler) draining the queue vs one app process handling them inline`,
    ratio: ratiosOf(queued, inline),
    target: null,
    higherIsBetter: true,
    absolute: { queued: absoluteOf(queued, 'events/s'), inline: absoluteOf(inline, 'events/s') },
  };
}

/**
 * Queued webhook processing (@paymount/bullmq) in a local redis-server the
 * group starts: how fast a delivery is answered when its handler takes 30 s
 * against an empty handler run inline (both deduplicating in Redis: the
 * merchant's one change is the option), and how many events three worker
 * processes handle per second.
 */
export async function webhookQueueFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const redis = scope.adopt(await startRedisServer());
    const { upstream, load } = await startRouteBench(scope);
    const app = { framework: 'express' as const, upstream };
    const slow: QueuedVariant = { name: 'bench-ack', handlerMs: SLOW_HANDLER_MS, concurrency: WORKER_CONCURRENCY };
    const ack = await measureRoutePair(scope, settings, load, app, DELIVERY, 200, [
      { name: 'queued', side: 'paymount', variant: { redisUrl: redis.url, queue: slow } },
      { name: 'inline', side: 'paymount', variant: { redisUrl: redis.url } },
    ]);

    // The queue fills from an app without workers while the worker processes are paused, then they drain it.
    const drained: QueuedVariant = { name: 'bench-throughput', handlerMs: 0, concurrency: WORKER_CONCURRENCY };
    const start = (variant: MerchantAppArgs['variant']) => scope.start<{ url: string }>(subject('merchant-app'), { ...app, side: 'paymount', variant } satisfies MerchantAppArgs);
    const filler = await start({ redisUrl: redis.url, queue: { ...drained, concurrency: 0 } });
    const inlineApp = await start({ redisUrl: redis.url });
    const workers: Array<Child<{ pid: number }>> = [];
    for (let i = 0; i < WORKER_PROCESSES; i++) {
      workers.push(await scope.start<{ pid: number }>(subject('queue-worker'), { upstream, redisUrl: redis.url, queue: drained } satisfies QueueWorkerArgs));
    }
    const tell = (request: QueueWorkerRequest) => Promise.all(workers.map((worker) => worker.request(request, 30_000)));
    const queue = createWebhookQueue({ connection: redis.url, name: drained.name, logger: silentLogger });
    const loadOf = (server: Child<{ url: string }>) => ({
      origin: server.ready.url,
      connections: settings.connections,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
      maxRequests: settings.maxOps,
      request: DELIVERY,
      expectStatus: 200,
    });
    try {
      const drain = async () => {
        await tell({ run: false });
        const filled = await load.run(loadOf(filler));
        const started = performance.now();
        await tell({ run: true });
        while ((await queue.depth()) > 0) await sleep(20);
        // Warm-up deliveries were queued too: every job is counted.
        const handled = Object.values(filled.statuses).reduce((sum, count) => sum + count, 0);
        return handled / ((performance.now() - started) / 1_000);
      };
      const paired = await pairedRuns<number>(settings.runs, [
        { name: 'queued', measure: drain },
        { name: 'inline', measure: async () => (await load.run(loadOf(inlineApp), inlineApp)).opsPerSecond },
      ]);
      const runs = paired.get('queued')!.map((queued, index) => ({ queued, inline: paired.get('inline')![index]! }));
      return [...ackFiguresOf(ack), throughputFigureOf(runs)];
    } finally {
      await queue.close();
    }
  });
}
