import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { recordKeys, type HandlerBehaviour } from './support/records';
import { killMerchantProcess, startMerchantProcess, stopMerchantProcess, type MerchantProcess } from './support/processes';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { adminClient, appConfig, counts, eventKeyOf, FAST_RECOVERY, KILLED_HANDLER_MS } from './support/scenario';
import { waitFor } from './support/wait';

describe.skipIf(redisSkipped())('a worker process killed (SIGKILL) in the middle of a job', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let admin: Redis;
  const running: MerchantProcess[] = [];
  const apps: QueuedApp[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400] });
    admin = adminClient(redis);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stopMerchantProcess));
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await admin?.quit();
    await sandbox?.close();
    await redis?.stop();
  });

  /** An app that only queues, two worker processes, and one event delivered: resolves once a worker started it. */
  async function oneEventOnTwoWorkers(namespace: string, behaviour: HandlerBehaviour) {
    const config = appConfig(sandbox, redis, namespace, { processingTtlMs: FAST_RECOVERY.processingTtlMs });
    const app = await startQueuedApp(config, () => {
      throw new Error('the app process runs no handler');
    });
    apps.push(app);
    const workerConfig = { ...config, serve: false, workers: FAST_RECOVERY.workers };
    const workers = await Promise.all([0, 1].map(() => startMerchantProcess({ app: workerConfig, behaviour })));
    running.push(...workers);
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    const key = await eventKeyOf(sandbox, delivery);
    await waitFor('a worker to start the job', () => workers.some((worker) => worker.started.length > 0));
    const first = workers.find((worker) => worker.started.length > 0)!;
    const other = workers.find((worker) => worker !== first)!;
    return { key, first, other, records: recordKeys(namespace) };
  }

  it('killed before its effect: the other worker takes the job over once the lock lapses, and the effect happens once', async () => {
    const { key, first, other, records } = await oneEventOnTwoWorkers('crash-before', { handlerMs: KILLED_HANDLER_MS, effectAt: 'end' });
    await killMerchantProcess(first);

    await waitFor('the other worker to finish the job', async () => (await counts(admin, records.effects))[key] === 1, 30_000);
    expect(other.started.map((run) => run.key)).toEqual([key]);
    expect(await counts(admin, records.runs)).toEqual({ [key]: 2 });
    expect(await counts(admin, records.effects)).toEqual({ [key]: 1 });
    expect(await admin.hget(records.keyed, key)).toBe(String(other.pid));
  }, 60_000);

  it('killed after its effect but before the event was marked handled: the handler runs again, so a plain effect happens twice and one keyed by the event once', async () => {
    const { key, first, other, records } = await oneEventOnTwoWorkers('crash-after', { handlerMs: KILLED_HANDLER_MS, effectAt: 'start' });
    await waitFor('the first run’s effect', async () => (await counts(admin, records.effects))[key] === 1);
    await killMerchantProcess(first);

    await waitFor('the other worker to run it again', async () => (await counts(admin, records.effects))[key] === 2, 30_000);
    expect(other.started.map((run) => run.key)).toEqual([key]);
    // At least once for what the handler does outside the dedupe store: the killed run never reached completion.
    expect(await counts(admin, records.runs)).toEqual({ [key]: 2 });
    // Exactly once for an effect written under the event's dedupe key (or, with @paymount/postgres, in its transaction).
    expect(await admin.hlen(records.keyed)).toBe(1);
    expect(await admin.hget(records.keyed, key)).toBe(String(first.pid));
  }, 60_000);
});
