import { createPostgresStores, fromPg } from '@paymount/postgres';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_START_LIMIT_MS, postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { killMerchantProcess, startMerchantProcess, stopMerchantProcess, type MerchantProcess } from './support/processes';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordKeys, SHIPMENTS_TABLE } from './support/records';
import { adminClient, appConfig, counts, eventKeyOf, FAST_RECOVERY, KILLED_HANDLER_MS } from './support/scenario';
import { waitFor } from './support/wait';
import { testPool } from '../../../tools/postgres-pool';

const NAMESPACE = 'pgtx';

describe.skipIf(redisSkipped() || postgresSkipped)('queued workers on @paymount/postgres stores, the handler writing through the event’s transaction', () => {
  let redis: RedisServer;
  let postgres: PostgresServer;
  let pool: pg.Pool;
  let sandbox: Sandbox;
  let admin: Redis;
  let app: QueuedApp;
  const workers: MerchantProcess[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    postgres = await startPostgresServer();
    const postgresUrl = postgres.createDatabase('queued_transactions');
    pool = testPool(postgresUrl);
    await pool.query(`CREATE TABLE ${SHIPMENTS_TABLE} (event_key text NOT NULL, worker_pid integer NOT NULL)`);
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400] });
    admin = adminClient(redis);
    const config = appConfig(sandbox, redis, NAMESPACE, { postgresUrl, processingTtlMs: FAST_RECOVERY.processingTtlMs });
    app = await startQueuedApp(config, () => {
      throw new Error('the app process runs no handler');
    });
    const workerConfig = { app: { ...config, serve: false, workers: FAST_RECOVERY.workers }, behaviour: { handlerMs: KILLED_HANDLER_MS, effectAt: 'start', transactional: true } } as const;
    workers.push(...(await Promise.all([0, 1].map(() => startMerchantProcess(workerConfig)))));
  }, POSTGRES_START_LIMIT_MS);
  afterAll(async () => {
    await Promise.all(workers.map(stopMerchantProcess));
    await app?.close();
    await admin?.quit();
    await pool?.end();
    await sandbox?.close();
    await redis?.stop();
    postgres?.destroy();
  });

  it('a worker SIGKILLed after its handler wrote the row, before the commit: the other worker runs it again, and the row exists once, with the event marked handled', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: '{"received":true,"queued":true}' })]);
    const key = await eventKeyOf(sandbox, delivery);

    await waitFor('a worker to write the row in its transaction', () => workers.some((worker) => worker.wrote.length > 0));
    const first = workers.find((worker) => worker.wrote.length > 0)!;
    const other = workers.find((worker) => worker !== first)!;
    await killMerchantProcess(first);

    const { idempotency } = createPostgresStores(fromPg(pool));
    await waitFor('the event to be marked handled', async () => (await idempotency.state(key)) === 'done', 30_000);
    expect(first.wrote.map((run) => run.key)).toEqual([key]);
    expect(other.started.map((run) => run.key)).toEqual([key]);
    // The handler ran twice; only the run that marked the event handled committed its row.
    expect(await counts(admin, recordKeys(NAMESPACE).runs)).toEqual({ [key]: 2 });
    const { rows } = await pool.query(`SELECT event_key, worker_pid FROM ${SHIPMENTS_TABLE}`);
    expect(rows).toEqual([{ event_key: key, worker_pid: other.pid }]);
    expect(await app.queue.listFailed()).toEqual([]);

    const redelivered = await sandbox.resend(delivery.deliveryId);
    expect(redelivered.attempts[0]?.answer).toBe('{"received":true,"duplicate":true}');
  }, 60_000);
});
