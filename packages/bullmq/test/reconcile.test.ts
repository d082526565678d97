import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { dedupeKeyOf, type PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { jobIdOf } from '../src';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

describe.skipIf(redisSkipped())('reconciliation with queued processing', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const handled: PaymentEvent[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    // The routes send no notifyUrl: no webhook comes, reconciliation is how the outcome arrives. Workers start later.
    app = await startQueuedApp(appConfig(sandbox, redis, 'reconcile'), (event) => void handled.push(event));
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('queues the outcome it finds as one BullMQ job, however often it runs; a worker handles it once and the order is settled', async () => {
    const orderId = `order-${randomUUID().slice(0, 8)}`;
    const paid = await fetch(`${app.routesUrl}/wallet/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
    });
    expect(await paid.json()).toMatchObject({ status: 'succeeded' });
    expect(sandbox.deliveries()).toEqual([]);

    // Queued, not handled: the attempt stays pending until a worker has run the handlers.
    const queued = { checked: 1, settled: 0, stillPending: 1, errors: 0 };
    expect(await app.reconcile()).toEqual(queued);
    expect(await app.reconcile()).toEqual(queued);
    expect(await app.queue.depth()).toBe(1);
    const [job] = await app.queue.bullQueue.getWaiting();
    expect(job?.data.event).toMatchObject({ type: 'payment.succeeded', referenceOrderId: orderId, deliveryId: expect.stringMatching(/^reconciliation:/) });
    expect(job?.id).toBe(jobIdOf(await dedupeKeyOf(job!.data.event)));
    expect(handled).toEqual([]);

    app.startWorkers({ concurrency: 2 });
    await waitFor('the worker to handle the reconciled event', () => handled.length === 1);
    expect(handled[0]).toMatchObject({ type: 'payment.succeeded', referenceOrderId: orderId });
    // The worker settled the attempt: nothing is left to reconcile, and nothing runs again.
    await waitFor('the attempt to be settled', async () => (await app.reconcile()).checked === 0);
    await sleep(500);
    expect(handled).toHaveLength(1);
    expect(await app.queue.depth()).toBe(0);
  }, 60_000);
});
