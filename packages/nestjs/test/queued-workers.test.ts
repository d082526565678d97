import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { createWebhookQueue, jobIdOf, type WebhookQueue } from '@paymount/bullmq';
import { dedupeKeyOf, MemoryIdempotencyStore, PaymentValidationError, verifyWebhook, type PaymentEvent } from '@paymount/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postRaw } from '../../../tools/conformance/http';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { OnPaymentEvent, PaymentsService } from '../src';
import { queuedAppModule, WEBHOOK_QUEUE, type QueuedAppSettings } from './queued-app';
import { startNestApp, type NestTestApp } from './support';

/** Every handler run that finished, across the apps of a test: the transaction id. */
const handled: string[] = [];
/** Started runs of the slow event, the latch that lets them finish, and the job waiting behind it. */
const slow = { started: 0, release: () => {}, latch: Promise.resolve(), waitingJobId: '' };

@Injectable()
class Fulfilment {
  @OnPaymentEvent('payment.succeeded')
  async ship(event: PaymentEvent): Promise<void> {
    if (event.transactionId === 'txn_slow') {
      slow.started += 1;
      await slow.latch;
    }
    handled.push(event.transactionId ?? '-');
  }
}

/**
 * A job that ends while the app shuts down: the slow handler is let go at
 * the latest when the app reaches beforeApplicationShutdown, which then
 * gives workers still taking jobs the time to take the waiting one. Workers
 * closed after the handlers were unsubscribed (at onApplicationShutdown, as
 * a hand-wired provider would) run it without them, and it is lost.
 */
@Injectable()
class ShutdownProbe implements BeforeApplicationShutdown {
  constructor(@Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue) {}

  async beforeApplicationShutdown(): Promise<void> {
    slow.release();
    for (let i = 0; i < 60 && (await this.queue.bullQueue.getJobState(slow.waitingJobId)) === 'waiting'; i += 1) await sleep(50);
  }
}

describe('the workers option', () => {
  it('refuses a value that is not a function, workers without webhook.processing, and a start that returns no workers, naming the field', async () => {
    const fixture = await startAdapterFixture();
    try {
      const issues = (options: object) => {
        try {
          new PaymentsService({ ...fixture.options, ...options } as never);
        } catch (error) {
          if (error instanceof PaymentValidationError) return error.issues;
          throw error;
        }
        throw new Error('no PaymentValidationError was thrown');
      };
      expect(issues({ workers: { concurrency: 5 } })).toEqual([
        { path: 'workers', rule: 'type', message: expect.stringContaining('(routes) => startWebhookWorkers(queue, { routes })') },
      ]);
      expect(issues({ workers: () => ({ close: async () => {} }) })).toEqual([
        { path: 'workers', rule: 'requires', message: expect.stringContaining('webhook.processing') },
      ]);
      // What it returns is known once the app starts it.
      const processing = { enqueue: async () => {} };
      const service = new PaymentsService({ ...fixture.options, webhook: { ...fixture.options.webhook, processing }, workers: () => ({}) as never });
      expect(() => service.onApplicationBootstrap()).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'workers', message: expect.stringContaining('close()') })] }));
      await service.onModuleDestroy();
    } finally {
      await fixture.close();
    }
  });
});

describe.skipIf(redisSkipped())('queued processing wired through Nest: queue from DI, workers with the app lifecycle', () => {
  let redis: RedisServer;
  let fixture: AdapterFixture;
  let admin: Redis;
  let settings: QueuedAppSettings;
  const open: NestTestApp[] = [];

  const startApp = async (store = new MemoryIdempotencyStore()) => {
    const app = await startNestApp(queuedAppModule(settings, [Fulfilment, ShutdownProbe], { store }));
    open.push(app);
    return app;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    fixture = await startAdapterFixture();
    admin = new Redis(redis.url);
    const { sandbox } = fixture;
    settings = {
      redisUrl: redis.url,
      queueName: 'nest-lifecycle',
      client: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId, localDevelopment: true },
      webhookSecret: sandbox.webhookSecret,
      workers: true,
    };
  });
  // Each test's apps are closed before the next one's start: one app at a time takes the queue's jobs.
  afterEach(async () => {
    await Promise.all(open.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await admin?.quit();
    await fixture?.close();
    await redis?.stop();
  });

  /** Closes `app` (resolves when it is closed); afterEach then has nothing left to close of it. */
  const closeApp = (app: NestTestApp) => {
    open.splice(open.indexOf(app), 1);
    return app.close();
  };

  /** A signed delivery of a payment of `transactionId`, and its event's dedupe key. */
  async function signed(transactionId: string) {
    const { body, headers } = fixture.delivery(transactionId);
    return { body, headers, key: await dedupeKeyOf(await verifyWebhook({ rawBody: body, headers, secret: settings.webhookSecret })) };
  }

  /** Delivers it to the app, which answers that it queued it; resolves its dedupe key. */
  async function deliver(app: NestTestApp, transactionId: string): Promise<string> {
    const { body, headers, key } = await signed(transactionId);
    expect(await postRaw(`${app.url}/payments/webhook`, body, headers)).toMatchObject({ status: 200, json: { queued: true } });
    return key;
  }

  /** The clients connected to the test's Redis besides `admin`. */
  const otherClients = async () => String(await admin.client('LIST')).trim().split('\n').length - 1;

  it('starts the workers once the app is up: a queued event reaches its @OnPaymentEvent method with no code of the app', async () => {
    await deliver(await startApp(), 'txn_bootstrap');
    await expect.poll(() => handled, { timeout: 10_000 }).toEqual(['txn_bootstrap']);
  });

  it(
    'app.close() lets the running job finish on its handler, leaves the waiting one queued for the next app, and then closes every connection',
    async () => {
      handled.length = 0;
      slow.latch = new Promise((resolve) => (slow.release = resolve));
      const first = await startApp();
      const slowKey = await deliver(first, 'txn_slow');
      await expect.poll(() => slow.started, { timeout: 10_000 }).toBe(1);
      // One worker, busy: this one waits in the queue.
      slow.waitingJobId = jobIdOf(await deliver(first, 'txn_waiting'));

      const closed = closeApp(first);
      // The running handler ends while the app is closing (at the latest at beforeApplicationShutdown, see ShutdownProbe).
      setTimeout(slow.release, 300);
      await closed;
      expect(handled).toEqual(['txn_slow']);
      // The workers' and the queue's connections are gone with the app.
      expect(await otherClients()).toBe(0);
      const view = createWebhookQueue({ connection: redis.url, name: settings.queueName });
      try {
        expect(await view.bullQueue.getJobState(jobIdOf(slowKey))).toBe('completed');
        expect(await view.bullQueue.getJobState(slow.waitingJobId)).toBe('waiting');
      } finally {
        await view.close();
      }

      await startApp();
      await expect.poll(() => handled, { timeout: 10_000 }).toEqual(['txn_slow', 'txn_waiting']);
      expect(slow.started).toBe(1);
    },
    60_000,
  );

  it('a job still claiming its event when the app starts closing runs its handler: they stay subscribed until the workers are closed', async () => {
    handled.length = 0;
    const { key } = await signed('txn_slow_claim');
    let claimed = () => {};
    const claiming = new Promise<void>((resolve) => (claimed = resolve));
    let letClaim = () => {};
    const latch = new Promise<void>((resolve) => (letClaim = resolve));
    /** The dedupe store, its claim slow for that event: the job is taken, its handlers not dispatched yet. */
    class SlowClaims extends MemoryIdempotencyStore {
      override async claim(claimedKey: string, ttlMs: number): Promise<boolean> {
        if (claimedKey === key) {
          claimed();
          await latch;
        }
        return super.claim(claimedKey, ttlMs);
      }
    }
    const app = await startApp(new SlowClaims());
    await deliver(app, 'txn_slow_claim');
    await claiming;

    const closed = closeApp(app);
    // The claim completes once the app's shutdown is under way.
    setTimeout(letClaim, 300);
    await closed;
    expect(handled).toEqual(['txn_slow_claim']);
  });
});
