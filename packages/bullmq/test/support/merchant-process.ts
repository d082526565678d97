/**
 * A merchant process for the crash tests: an app instance, a worker, or
 * both (QueuedAppConfig), configured by the PAYMOUNT_PROCESS environment
 * variable (JSON MerchantProcessConfig). Its handler records what it does in
 * Redis, where it survives a SIGKILL of this process: a run under
 * `<namespace>:t:runs` (and the process of the event's first run under
 * `<namespace>:t:first-run`), the effect under `<namespace>:t:effects`
 * (counted: what a plain side effect, an e-mail or an ERP call, amounts to)
 * and `<namespace>:t:keyed` (written once per event key: an effect made
 * idempotent by the event's dedupe key), and the runs Redis went away during
 * under `<namespace>:t:during-outage`. A transactional handler writes its
 * effect as a row through the event's transaction instead. Reports
 * `listening`, each `started` run and each effect it `wrote` over IPC.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { dedupeKeyOf, type PaymentEvent } from '@paymount/core';
import { inTransaction, type PostgresQueryable } from '@paymount/postgres';
import { Redis } from 'ioredis';
import { startQueuedApp } from './queued-app';
import { recordKeys, SHIPMENTS_TABLE, type MerchantProcessConfig, type ProcessMessage } from './records';

function report(message: ProcessMessage): void {
  process.send?.(message);
}

const config = JSON.parse(process.env['PAYMOUNT_PROCESS'] ?? 'null') as MerchantProcessConfig | null;
if (config === null) throw new Error('PAYMOUNT_PROCESS is not set');
const { behaviour } = config;
const keys = recordKeys(config.app.namespace);
const redis = new Redis(config.app.redisUrl, { maxRetriesPerRequest: null });
// Its commands wait through a Redis restart; the reconnect errors meanwhile are expected.
redis.on('error', () => {});
/** Connections to Redis lost so far: a run during which this changed lived through an outage. */
let outages = 0;
redis.on('close', () => void (outages += 1));

/** The run's effect: in Redis, or a row written through the event's transaction (committed with its mark, or not at all). */
const effect = async (key: string, db: PostgresQueryable | undefined) => {
  if (db) await db.query(`INSERT INTO ${SHIPMENTS_TABLE} (event_key, worker_pid) VALUES ($1, $2)`, [key, process.pid]);
  else await redis.multi().hincrby(keys.effects, key, 1).hsetnx(keys.keyed, key, String(process.pid)).exec();
  report({ kind: 'wrote', key, pid: process.pid });
};

const run = async (event: PaymentEvent, db?: PostgresQueryable) => {
  const key = await dedupeKeyOf(event);
  const outagesBefore = outages;
  await redis.multi().hincrby(keys.runs, key, 1).hsetnx(keys.firstRun, key, String(process.pid)).exec();
  report({ kind: 'started', key, pid: process.pid });
  if (behaviour.effectAt === 'start') await effect(key, db);
  await sleep(behaviour.handlerMs);
  if (behaviour.failWhileBroken && (await redis.exists(keys.broken)) === 1) throw new Error('the ERP is down (test)');
  if (behaviour.effectAt === 'end') await effect(key, db);
  // Its claim and its job's lock could lapse while Redis was away: another worker may have run it meanwhile.
  if (outages !== outagesBefore) await redis.hsetnx(keys.duringOutage, key, String(process.pid));
};

const app = await startQueuedApp(config.app, behaviour.transactional ? inTransaction((event, { db }) => run(event, db)) : (event) => run(event));

process.on('disconnect', () => {
  void Promise.all([app.close(), redis.quit()]).finally(() => process.exit(0));
});
report({ kind: 'listening', routesUrl: app.routesUrl });
