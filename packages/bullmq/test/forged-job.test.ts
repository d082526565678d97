import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { dedupeKeyOf, type PaymentEvent, type QueuedEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { DEFAULT_QUEUE_PREFIX, jobIdOf, PAYMENT_EVENT_JOB } from '../src';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { adminClient, appConfig } from './support/scenario';
import { waitFor } from './support/wait';

const REFUSED = 'queued webhook job refused';

async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function orderStatus(app: QueuedApp, orderId: string): Promise<unknown> {
  const res = await fetch(`${app.routesUrl}/status?orderId=${orderId}`);
  return ((await res.json()) as { status: unknown }).status;
}

/** What a job sealed as the routes seal it, but under `secret`, would carry. */
function macUnder(secret: string, key: string, event: PaymentEvent): string {
  const sealKey = createHmac('sha256', secret).update('paymount queued-event seal v1').digest('hex');
  return createHmac('sha256', sealKey).update(JSON.stringify([key, event])).digest('hex');
}

describe.skipIf(redisSkipped())('a job written straight into the queue\'s Redis', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  let admin: Redis;
  /** Anyone who can reach the queue's Redis: BullMQ's own producer, on the app's queue. */
  let attacker: Queue<unknown>;
  const logger = recordingLogger();
  const handled: PaymentEvent[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    // The README's set-up: stores and queue on one Redis, workers in the app. The routes send no notifyUrl, so payments arrive by reconciliation.
    app = await startQueuedApp(appConfig(sandbox, redis, 'forged', { workers: { concurrency: 2 } }), (event) => void handled.push(event), { logger });
    admin = adminClient(redis);
    attacker = new Queue('forged', { connection: { host: '127.0.0.1', port: redis.port }, prefix: DEFAULT_QUEUE_PREFIX });
  });
  afterAll(async () => {
    await attacker?.close();
    admin?.disconnect();
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('runs no handler, reads no store, is failed without retry and logged; the order stays unpaid, and real jobs (reconciled, delivered) still run', async () => {
    // A real job, from reconciliation of a real payment: the shape a forger copies.
    const paidOrder = `order-${randomUUID().slice(0, 8)}`;
    const paid = await postJson(`${app.routesUrl}/wallet/pay`, { orderId: paidOrder, token: sandbox.mintWalletToken() });
    expect(paid.body).toMatchObject({ status: 'succeeded' });
    expect(await app.reconcile()).toMatchObject({ checked: 1, stillPending: 1 });
    await waitFor('the reconciled event to be handled', () => handled.length === 1);
    const realKey = await dedupeKeyOf(handled[0]!);
    const real = (await app.queue.bullQueue.getJob(jobIdOf(realKey)))!.data;

    // The target: an order with a checkout open, its attempt readable in the same Redis.
    const target = `order-${randomUUID().slice(0, 8)}`;
    expect((await postJson(`${app.routesUrl}/checkout`, { orderId: target })).status).toBe(201);
    const [attemptKey] = await admin.keys(`*attempt:${target}`);
    expect(attemptKey).toMatch(/^forged:/);
    const attempt = await admin.hgetall(attemptKey!);
    expect(attempt['transactionRequestId']).toBeTruthy();

    const event = {
      ...real.event,
      referenceOrderId: target,
      transactionId: `T${randomBytes(8).toString('hex')}`,
      transactionRequestId: attempt['transactionRequestId']!,
      deliveryId: `forged-${randomUUID()}`,
      ...(attempt['sessionId'] === undefined ? {} : { sessionId: attempt['sessionId'] }),
    } as PaymentEvent;
    const key = await dedupeKeyOf(event);
    const forgeries: Record<string, Omit<QueuedEvent, 'mac'> & { mac?: string }> = {
      // The real job's seal, the event altered.
      'a real seal over an altered event': { key, event, mac: real.mac },
      'a real job with one field altered': { ...real, event: { ...real.event, deliveryId: 'forged-delivery' } },
      'no seal': { key, event },
      'a made-up seal': { key, event, mac: randomBytes(32).toString('hex') },
      'a seal under another secret': { key, event, mac: macUnder('not-the-webhook-secret-0123456789', key, event) },
    };

    const commands: string[][] = [];
    const monitor = await admin.monitor();
    monitor.on('monitor', (_time: string, args: string[]) => commands.push(args));
    const ids = Object.keys(forgeries).map((_, index) => `forged-${index}`);
    await Promise.all(Object.values(forgeries).map((data, index) => attacker.add(PAYMENT_EVENT_JOB, data, { jobId: ids[index]! })));

    const finished = async (id: string) => (await attacker.getJob(id))?.finishedOn !== undefined;
    await waitFor('every forged job to be run', async () => (await Promise.all(ids.map(finished))).every(Boolean));
    // The monitor's stream trails the commands: wide enough that a store read would have arrived on a busy machine.
    await sleep(2_000);
    monitor.disconnect();
    expect(handled).toHaveLength(1);
    for (const id of ids) {
      const job = (await attacker.getJob(id))!;
      // Failed on its first run, never retried.
      expect({ id, attemptsMade: job.attemptsMade, failedReason: job.failedReason }).toEqual({ id, attemptsMade: 1, failedReason: expect.stringContaining('refused') });
    }
    expect(real.mac).toMatch(/^[0-9a-f]{64}$/);
    // Neither the event's dedupe key nor the order was looked up in the stores (keys `forged:...`; BullMQ's are `paymount:forged:...`): the job tells nothing about attempts.
    const touched = commands.filter((args) => args.some((arg) => arg.startsWith('forged:') && (arg.includes(target) || arg.includes(key))));
    // The monitor saw the forged jobs go in and out of BullMQ's keys: it was watching.
    expect(commands.some((args) => args.some((arg) => arg.includes(key)))).toBe(true);
    expect(touched).toEqual([]);
    const refusals = logger.entries.filter((entry) => entry.message.startsWith(REFUSED));
    expect(refusals).toHaveLength(ids.length);
    expect(refusals.every((entry) => entry.level === 'error')).toBe(true);
    expect(refusals[0]!.message).toContain('something wrote to the queue\'s Redis');
    expect(refusals[0]!.message).toContain('webhook.secret');

    expect(await orderStatus(app, target)).toBe('pending');
    expect(sandbox.charges().filter((charge) => charge.referenceOrderId === target)).toEqual([]);
    // The order can still be paid, and its real event runs.
    const targetPaid = await postJson(`${app.routesUrl}/wallet/pay`, { orderId: target, token: sandbox.mintWalletToken() });
    expect(targetPaid.body).toMatchObject({ status: 'succeeded' });
    expect(await app.reconcile()).toMatchObject({ stillPending: 1 });
    await waitFor('the target\'s real event to be handled', () => handled.length === 2);
    expect(handled[1]).toMatchObject({ type: 'payment.succeeded', referenceOrderId: target });

    // A real delivery, queued by the webhook route, runs too.
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200 })]);
    await waitFor('the delivered event to be handled', () => handled.length === 3);
    expect(handled[2]).toMatchObject({ transactionId: delivery.payload['transactionId'] });
  }, 60_000);
});

describe.skipIf(redisSkipped())('webhook secret rotation with queued processing', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  const apps: QueuedApp[] = [];
  const NEW_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await sandbox?.close();
    await redis?.stop();
  });

  const start = async (secrets: string[], role: 'web' | 'worker', handled: PaymentEvent[] = [], logger = recordingLogger()) => {
    const extra = role === 'web' ? { webhookSecrets: secrets } : { webhookSecrets: secrets, serve: false, workers: { concurrency: 1 } };
    const app = await startQueuedApp(appConfig(sandbox, redis, 'rotation', extra), (event) => void handled.push(event), { logger });
    apps.push(app);
    return app;
  };
  const deliver = async (web: QueuedApp) => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${web.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: expect.stringContaining('queued') })]);
    return String(delivery.payload['transactionId']);
  };

  it('a worker holding the new and the old secret runs jobs sealed under either; one without the sealing secret refuses the job and says why', async () => {
    const old = sandbox.webhookSecret;
    const webBefore = await start([old], 'web');
    const webDuring = await start([NEW_SECRET, old], 'web');
    const handled: PaymentEvent[] = [];
    const worker = await start([NEW_SECRET, old], 'worker', handled);
    const sealedOld = await deliver(webBefore);
    const sealedNew = await deliver(webDuring);
    await waitFor('both jobs to be handled', () => handled.length === 2);
    expect(handled.map((event) => event.transactionId).sort()).toEqual([sealedOld, sealedNew].sort());
    await worker.workers!.close();

    // A worker left on the old secret alone: a job sealed under the new one is refused, and the log says the secrets differ.
    const logger = recordingLogger();
    const behind: PaymentEvent[] = [];
    const staleWorker = await start([old], 'worker', behind, logger);
    const refusedId = await deliver(webDuring);
    const stillOld = await deliver(webBefore);
    await waitFor('the old-secret job to be handled', () => behind.length === 1);
    await waitFor('the new-secret job to be refused', () => logger.entries.some((entry) => entry.message.startsWith(REFUSED)));
    expect(behind.map((event) => event.transactionId)).toEqual([stillOld]);
    const refusal = logger.entries.find((entry) => entry.message.startsWith(REFUSED))!;
    expect(refusal.fields).toMatchObject({ transactionId: refusedId });
    expect(refusal.message).toContain('other webhook secrets than this worker');
    expect(await staleWorker.queue.listFailed()).toEqual([expect.objectContaining({ transactionId: refusedId, attempts: 1 })]);
  }, 60_000);
});
