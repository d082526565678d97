import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { startBalancer } from './support/balancer';
import { killMerchantProcess, startMerchantProcess, stopMerchantProcess, type MerchantProcess } from './support/processes';
import { recordKeys, type MerchantProcessConfig } from './support/records';
import { adminClient, appConfig, counts, eventKeyOf, FAST_RECOVERY } from './support/scenario';
import { waitFor } from './support/wait';

const EVENTS = Number(process.env['PAYMOUNT_LOAD_EVENTS'] ?? 200);
const NAMESPACE = 'load';

describe.skipIf(redisSkipped())(`3 app processes and 3 worker processes, ${EVENTS} events delivered twice each, workers killed`, () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let admin: Redis;
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  const processes: MerchantProcess[] = [];
  let workerConfig: MerchantProcessConfig;

  beforeAll(async () => {
    redis = await startRedisServer(['--appendonly', 'yes']);
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [200, 400, 800, 1_600] });
    admin = adminClient(redis);
    const base = appConfig(sandbox, redis, NAMESPACE, { processingTtlMs: FAST_RECOVERY.processingTtlMs });
    const behaviour = { handlerMs: 500, effectAt: 'end' } as const;
    const app: MerchantProcessConfig = { app: base, behaviour };
    const worker: MerchantProcessConfig = (workerConfig = { app: { ...base, serve: false, workers: { ...FAST_RECOVERY.workers, concurrency: 8, maxStalledCount: 5 } }, behaviour });
    processes.push(...(await Promise.all([app, app, app, worker, worker, worker].map(startMerchantProcess))));
    balancer = await startBalancer(processes.slice(0, 3).map((process) => process.routesUrl!));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map(stopMerchantProcess));
    balancer?.close();
    await admin?.quit();
    await sandbox?.close();
    await redis?.stop();
  });

  it('every event’s keyed effect happens exactly once, none is lost, and the killed workers’ jobs are taken over', async () => {
    const records = recordKeys(NAMESPACE);
    const deliveries: Delivery[] = [];
    const deliverAll = async () => {
      for (let i = 0; i < EVENTS; i += 20) {
        const batch = Array.from({ length: Math.min(20, EVENTS - i) }, () => sandbox.trigger('payment.succeeded', { forwardTo: `${balancer.url}/webhook` }));
        deliveries.push(...(await Promise.all(batch)));
      }
      // Every event delivered a second time, through another instance.
      for (let i = 0; i < deliveries.length; i += 20) await Promise.all(deliveries.slice(i, i + 20).map((delivery) => sandbox.resend(delivery.deliveryId)));
    };
    const killing = (async () => {
      // Two of the three workers are killed while jobs run; a fresh one replaces the first.
      const workers = processes.slice(3);
      await waitFor('jobs to run', () => workers.every((worker) => worker.started.length > 0), 30_000);
      await killMerchantProcess(workers[0]!);
      processes.push(await startMerchantProcess(workerConfig));
      await sleep(1_000);
      await killMerchantProcess(workers[1]!);
    })();
    await Promise.all([deliverAll(), killing]);

    expect(deliveries).toHaveLength(EVENTS);
    expect(balancer.statuses.filter((status) => status !== 200)).toEqual([]);
    const keys = await Promise.all(deliveries.map((delivery) => eventKeyOf(sandbox, delivery)));
    await waitFor('every event to be handled', async () => (await admin.hlen(records.keyed)) === EVENTS, 45_000);
    const effects = await counts(admin, records.effects);
    const runs = await counts(admin, records.runs);
    const retaken = keys.filter((key) => (runs[key] ?? 0) > 1);
    console.log(
      `${EVENTS} events, ${balancer.statuses.length} deliveries answered 200; ${retaken.length} runs taken over from killed workers; ` +
        `plain effects twice: ${keys.filter((key) => (effects[key] ?? 0) > 1).length}`,
    );
    expect(keys.filter((key) => (effects[key] ?? 0) === 0)).toEqual([]);
    expect(await admin.hlen(records.keyed)).toBe(EVENTS);
    expect(retaken.length).toBeGreaterThan(0);
  }, 120_000);
});
