import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

const EVENTS = 40;

describe.skipIf(redisSkipped())('Redis restarted while events are delivered and handled', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const effects = new Map<string, number>();

  beforeAll(async () => {
    // What the durability check asks of a production Redis: every write in the append-only file.
    redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
    // The service retries a 503 (Redis down) for about 6 s: longer than the outage.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [200, 400, 800, 1_600, 3_200, 6_400] });
    const onEvent = async (event: PaymentEvent) => {
      await sleep(100);
      const id = event.transactionId ?? '-';
      effects.set(id, (effects.get(id) ?? 0) + 1);
    };
    app = await startQueuedApp(appConfig(sandbox, redis, 'restart', { workers: { concurrency: 4, stalledIntervalMs: 1_000, lockDurationMs: 2_000 } }), onEvent);
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('0 lost: every event delivered before, during and after the outage is handled, once', async () => {
    const deliveries: Array<Promise<Delivery>> = [];
    const deliver = () => deliveries.push(sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` }));
    for (let i = 0; i < EVENTS / 2; i += 1) deliver();
    await sleep(300);
    await redis.stop();
    for (let i = 0; i < EVENTS / 2; i += 1) deliver();
    await sleep(1_000);
    await redis.start();

    const delivered = await Promise.all(deliveries);
    expect(delivered.map((delivery) => delivery.state)).toEqual(delivered.map(() => 'delivered'));
    // Some deliveries met Redis down (503) and were delivered again by the service.
    expect(delivered.some((delivery) => delivery.attempts.some((attempt) => attempt.status === 503))).toBe(true);
    const ids = delivered.map((delivery) => String(delivery.payload['transactionId']));
    await waitFor('every event to be handled', () => ids.every((id) => effects.has(id)), 30_000);
    await sleep(1_000);
    expect(ids.filter((id) => effects.get(id) !== 1)).toEqual([]);
    expect(effects.size).toBe(EVENTS);
    expect(await app.queue.listFailed()).toEqual([]);
  }, 60_000);
});
