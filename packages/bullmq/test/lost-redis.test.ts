import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

const PAYMENTS = 4;
/** How long "nothing more runs" is watched: wide enough that a run wrongly started shows on a busy machine. */
const QUIET_MS = 2_000;

describe.skipIf(redisSkipped())('the queue\'s Redis restarted without persistence, events answered "queued" lost', () => {
  let storesRedis: RedisServer;
  let queueRedis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const logger = recordingLogger();
  const handled: PaymentEvent[] = [];

  beforeAll(async () => {
    // The stores keep their data; the queue's Redis keeps nothing (no AOF, no snapshots): the set-up the start-up check warns of.
    storesRedis = await startRedisServer(['--appendonly', 'yes']);
    queueRedis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    const config = appConfig(sandbox, storesRedis, 'lost', { queueRedisUrl: queueRedis.url, selfNotify: true });
    app = await startQueuedApp(config, (event) => void handled.push(event), { logger });
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await queueRedis?.stop();
    await storesRedis?.stop();
  });

  it('is told at start-up with the fix; reconcile() and reconcileRefunds() recover every payment and refund, each handled once', async () => {
    await waitFor('the start-up check', () => logger.entries.some((entry) => entry.message.includes('can lose queued events')));
    const warnings = logger.entries.filter((entry) => entry.message.includes('can lose queued events'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', fields: { redis: `127.0.0.1:${queueRedis.port}` } });
    expect(warnings[0]!.message).toContain('appendonly no and save "": set `appendonly yes`');
    expect(warnings[0]!.message).toContain('reconcileRefunds');
    // The stores' Redis keeps its data: nothing is said of it.
    expect(logger.entries.filter((entry) => entry.level === 'warn' && entry.message.includes(String(storesRedis.port)))).toEqual([]);

    // Payments through the routes, whose webhooks the service sends to the app; then a refund of each, its webhook sent there too.
    const client = app.paymentRoutes.client;
    const payments: string[] = [];
    for (let index = 0; index < PAYMENTS; index += 1) {
      const res = await fetch(`${app.routesUrl}/wallet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: `order-${randomUUID().slice(0, 8)}`, token: sandbox.mintWalletToken() }),
      });
      const paid = (await res.json()) as { status: string; transactionId: string };
      expect(paid.status).toBe('succeeded');
      payments.push(paid.transactionId);
    }
    const refundIds = payments.map((_, index) => `refund-${index}-${randomUUID().slice(0, 8)}`);
    for (const [index, originalTransactionId] of payments.entries()) {
      const refund = await client.refund({ transactionRequestId: refundIds[index]!, originalTransactionId, notifyUrl: `${app.routesUrl}/webhook` });
      expect(refund.status).toBe('succeeded');
    }
    await waitFor('8 deliveries answered "queued"', () => sandbox.deliveries().filter((delivery) => delivery.state === 'delivered').length === 2 * PAYMENTS);
    for (const delivery of sandbox.deliveries()) expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: expect.stringContaining('"queued":true') })]);
    expect(await app.queue.depth()).toBe(2 * PAYMENTS);

    // Redis restarts and forgets; the workers start on an empty queue: nothing runs, the service sends nothing again.
    await queueRedis.stop();
    await queueRedis.start();
    await waitFor('the queue to be reachable again', async () => (await app.queue.depth().catch(() => -1)) === 0);
    app.startWorkers({ concurrency: 2 });
    await sleep(QUIET_MS);
    expect(handled).toEqual([]);

    // The documented recovery: reconcile() for the payments, reconcileRefunds() for the refunds issued since.
    expect(await app.reconcile()).toMatchObject({ checked: PAYMENTS, stillPending: PAYMENTS, errors: 0 });
    expect(await app.paymentRoutes.reconcileRefunds(refundIds)).toEqual({ checked: PAYMENTS, settled: 0, stillPending: PAYMENTS, errors: 0 });
    await waitFor('all 8 events to be handled', () => handled.length === 2 * PAYMENTS);

    // Run again: everything is settled, nothing runs twice.
    await waitFor('the payments to be settled', async () => (await app.reconcile()).checked === 0);
    expect(await app.paymentRoutes.reconcileRefunds(refundIds)).toEqual({ checked: PAYMENTS, settled: PAYMENTS, stillPending: 0, errors: 0 });
    await sleep(QUIET_MS);
    expect(handled.filter((event) => event.type === 'payment.succeeded').map((event) => event.transactionId).sort()).toEqual([...payments].sort());
    expect(handled.filter((event) => event.type === 'refund.succeeded').map((event) => event.transactionRequestId).sort()).toEqual([...refundIds].sort());
    expect(handled).toHaveLength(2 * PAYMENTS);
  }, 60_000);

  it('reconcileRefunds() refuses ids that break the rule, naming the field, and counts an unknown refund as an error with its fix', async () => {
    await expect(app.paymentRoutes.reconcileRefunds(['not an id!'])).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: 'transactionRequestIds.0' })],
    });
    expect(await app.paymentRoutes.reconcileRefunds(['refund-never-issued'])).toEqual({ checked: 1, settled: 0, stillPending: 0, errors: 1 });
    const logged = logger.entries.find((entry) => entry.fields['transactionRequestId'] === 'refund-never-issued');
    expect(logged).toMatchObject({ level: 'error' });
    expect(String((logged!.fields['err'] as Error).message)).toContain('give the refund\'s own transactionRequestId');
  });
});
