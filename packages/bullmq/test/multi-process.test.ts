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

const EVENTS = Number(process.env['PAYMOUNT_LOAD_EVENTS'] ?? 2_000);
/** The share of jobs the run tries to kill mid-way (their worker SIGKILLed while the handler runs). */
const KILLED_SHARE = 0.1;
const NAMESPACE = 'load';
const BATCH = 20;
/** Jobs each worker process runs at once. */
const WORKER_CONCURRENCY = 40;
/** How long Redis stays down in the middle of the deliveries: shorter than the service's redelivery schedule below. */
const REDIS_OUTAGE_MS = 1_000;

describe.skipIf(redisSkipped())(
  `3 app processes and 3 worker processes, ${EVENTS} events delivered twice each, ${KILLED_SHARE * 100}% of jobs killed mid-way, Redis restarted`,
  () => {
    let redis: RedisServer;
    let sandbox: Sandbox;
    let admin: Redis;
    let balancer: Awaited<ReturnType<typeof startBalancer>>;
    const apps: MerchantProcess[] = [];
    const workers: MerchantProcess[] = [];
    const killed: MerchantProcess[] = [];
    let workerConfig: MerchantProcessConfig;
    const records = recordKeys(NAMESPACE);

    beforeAll(async () => {
      // SIGTERM makes redis-server write its append-only file out before it stops: what a restart keeps.
      redis = await startRedisServer(['--appendonly', 'yes']);
      // The service's redeliveries span about 12 s: longer than the outage, so a 503 then is delivered again after.
      sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [200, 400, 800, 1_600, 3_200, 6_400] });
      admin = adminClient(redis);
      const base = appConfig(sandbox, redis, NAMESPACE, { processingTtlMs: FAST_RECOVERY.processingTtlMs });
      // Handlers long enough, and workers few enough, that the queue backs up and each worker always runs its full concurrency: a kill takes down 40 jobs mid-way.
      const behaviour = { handlerMs: 2_000, effectAt: 'end' } as const;
      const app: MerchantProcessConfig = { app: base, behaviour };
      // maxStalledCount high: a job whose worker is killed again and again is still taken over, not failed.
      workerConfig = { app: { ...base, serve: false, workers: { ...FAST_RECOVERY.workers, concurrency: WORKER_CONCURRENCY, maxStalledCount: 20 } }, behaviour };
      const started = await Promise.all([app, app, app, workerConfig, workerConfig, workerConfig].map(startMerchantProcess));
      apps.push(...started.slice(0, 3));
      workers.push(...started.slice(3));
      balancer = await startBalancer(apps.map((process) => process.routesUrl!));
    });

    afterAll(async () => {
      await Promise.all([...apps, ...workers].map(stopMerchantProcess));
      balancer?.close();
      await admin?.quit();
      await sandbox?.close();
      await redis?.stop();
    });

    /** The runs a process started and did not finish: a run's effect is written, under its key, by the process that finished it. */
    async function unfinishedOn(process: MerchantProcess): Promise<number> {
      const keys = [...new Set(process.started.map((run) => run.key))];
      if (keys.length === 0) return 0;
      const finishers = await admin.hmget(records.keyed, ...keys);
      return finishers.filter((pid) => pid !== String(process.pid)).length;
    }

    /** A new worker process; one started while Redis is down exits (it cannot connect), and is started again. */
    async function startReplacement(attempts = 20): Promise<MerchantProcess> {
      try {
        return await startMerchantProcess(workerConfig);
      } catch (error) {
        if (attempts <= 1) throw error;
        await sleep(500);
        return startReplacement(attempts - 1);
      }
    }

    it('every event’s keyed effect happens exactly once, none is lost, and every killed job is taken over', async () => {
      const started = performance.now();
      /** Where the time goes, in the test's output: a run that is slow says in which phase. */
      const phase = (what: string) => console.log(`${((performance.now() - started) / 1_000).toFixed(1)} s: ${what}`);
      const deliveries: Delivery[] = [];
      const resent: Delivery[] = [];
      const deliverAll = async () => {
        for (let i = 0; i < EVENTS; i += BATCH) {
          const batch = Array.from({ length: Math.min(BATCH, EVENTS - i) }, () => sandbox.trigger('payment.succeeded', { forwardTo: `${balancer.url}/webhook` }));
          deliveries.push(...(await Promise.all(batch)));
        }
        phase(`${EVENTS} events delivered once`);
        // Every event delivered a second time, through another instance.
        for (let i = 0; i < deliveries.length; i += BATCH) resent.push(...(await Promise.all(deliveries.slice(i, i + BATCH).map((delivery) => sandbox.resend(delivery.deliveryId)))));
        phase(`${EVENTS} events delivered twice`);
      };
      /** How many events had been delivered once when Redis went down. */
      let deliveredAtOutage = EVENTS;
      const restartRedis = async () => {
        await waitFor('half the events to be delivered', () => deliveries.length >= EVENTS / 2, 120_000);
        await redis.stop();
        deliveredAtOutage = deliveries.length;
        phase('Redis stopped');
        await sleep(REDIS_OUTAGE_MS);
        await redis.start();
        phase('Redis started again');
      };
      // The worker running the most jobs is killed and replaced, until the jobs killed mid-way reach their share.
      const killedTarget = Math.ceil(EVENTS * KILLED_SHARE);
      let killedJobs = 0;
      const killWorkers = async () => {
        while (killedJobs < killedTarget) {
          if (deliveries.length === EVENTS && (await admin.hlen(records.keyed).catch(() => 0)) === EVENTS) return;
          // While Redis is down there is nothing to read: try again once it is back.
          const running = await Promise.all(workers.map(unfinishedOn)).catch(() => [0]);
          const busiest = running.indexOf(Math.max(...running));
          // Not while the workers are still filling up: a kill of a few jobs would spend one of the few kills the run has time for.
          if (running[busiest]! < WORKER_CONCURRENCY / 2) {
            await sleep(200);
            continue;
          }
          const victim = workers[busiest]!;
          await killMerchantProcess(victim);
          killed.push(victim);
          killedJobs += running[busiest]!;
          phase(`worker ${victim.pid} killed with ${running[busiest]} jobs running (${killedJobs} in all)`);
          workers[busiest] = await startReplacement();
        }
      };
      await Promise.all([deliverAll(), restartRedis(), killWorkers()]);
      phase('deliveries and kills done');

      const keys = await Promise.all(deliveries.map((delivery) => eventKeyOf(sandbox, delivery)));
      await waitFor('every event to be handled', async () => (await admin.hlen(records.keyed)) === EVENTS, 120_000);
      const seconds = (performance.now() - started) / 1_000;

      expect(deliveries).toHaveLength(EVENTS);
      expect([...deliveries, ...resent].filter((delivery) => delivery.state !== 'delivered')).toEqual([]);
      // The only answers other than 200 are 503s while Redis was down, each delivered again by the service.
      expect(balancer.statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      const effects = await counts(admin, records.effects);
      const runs = await counts(admin, records.runs);
      const firstRun = await admin.hgetall(records.firstRun);
      const duringOutage = await admin.hgetall(records.duringOutage);
      const killedPids = new Set(killed.map((process) => String(process.pid)));
      const firstRunKilled = new Set(keys.filter((key) => killedPids.has(firstRun[key] ?? '')));
      const outageOnly = keys.filter((key) => !firstRunKilled.has(key) && duringOutage[key] !== undefined && duringOutage[key] === firstRun[key]);
      /** Events that may run again: their first run died with its process, or lived through the Redis outage (its claim and lock lapsing meanwhile). */
      const mayRunAgain = new Set([...firstRunKilled, ...outageOnly]);
      const runTwice = keys.filter((key) => (runs[key] ?? 0) > 1);
      const plainTwice = keys.filter((key) => (effects[key] ?? 0) > 1);
      const killedMidway = (await Promise.all(killed.map(unfinishedOn))).reduce((sum, count) => sum + count, 0);
      const keyed = await admin.hgetall(records.keyed);
      /** Why an event ran again, as far as the records tell: its first run killed before its effect, lived through the outage, or neither. */
      const why = (key: string) =>
        firstRunKilled.has(key) && keyed[key] !== firstRun[key] ? 'killed' : duringOutage[key] === firstRun[key] ? 'outage' : 'other';
      const tally = (list: string[]) => ['killed', 'outage', 'other'].map((reason) => `${list.filter((key) => why(key) === reason).length} ${reason}`).join(', ');
      console.log(
        `${EVENTS} events in ${seconds.toFixed(1)} s: ${balancer.statuses.length} deliveries answered (${balancer.statuses.filter((s) => s === 503).length} 503 while Redis was down); ` +
          `${killed.length} worker processes killed, ${killedMidway} jobs killed mid-way, ${firstRunKilled.size} events first run in a killed process, ` +
          `${outageOnly.length} others first run through the Redis outage; ${runTwice.length} events run more than once (${tally(runTwice)}); ` +
          `plain effects twice: ${plainTwice.length} (${tally(plainTwice)})`,
      );
      // The loop aims at the share, but how many kills fit before the last event is handled depends on how fast a loaded
      // machine starts replacements (148 of 200 seen with both cores busy): the verdict asks for kills that prove the
      // take-over, at least two workers each killed with half its jobs running, and the checks below for exactly once.
      expect(killed.length).toBeGreaterThanOrEqual(2);
      expect(killedMidway).toBeGreaterThanOrEqual(WORKER_CONCURRENCY);
      // Redis went down while the first deliveries were still arriving. Each one meanwhile was answered 503 and
      // delivered again, or waited out the outage within the queue's time-out and was answered 200: which of the two
      // depends on where ioredis was in its reconnection (a CI run with 0 such 503s failed a check that asked for one).
      expect(deliveredAtOutage).toBeLessThan(EVENTS);
      // 0 lost, and the effect keyed by the event exactly once for each (the hash holds one field per event).
      expect(keys.filter((key) => (effects[key] ?? 0) === 0)).toEqual([]);
      expect(new Set(keys).size).toBe(EVENTS);
      expect(await admin.hlen(records.keyed)).toBe(EVENTS);
      expect(await admin.zcard(`paymount:${NAMESPACE}:failed`)).toBe(0);
      // No double run otherwise: every second run, and every plain effect twice, follows a kill or the outage.
      expect(runTwice.filter((key) => !mayRunAgain.has(key))).toEqual([]);
      expect(plainTwice.filter((key) => !mayRunAgain.has(key))).toEqual([]);
      expect(keys.filter((key) => !mayRunAgain.has(key) && effects[key] !== 1)).toEqual([]);
      expect(keys.every((key) => (runs[key] ?? 0) >= 1 && firstRun[key] !== undefined)).toBe(true);
    }, 300_000);
  },
);
