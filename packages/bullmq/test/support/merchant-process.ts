/**
 * A merchant process for the crash tests: an app instance, a worker, or
 * both (QueuedAppConfig), configured by the PAYMOUNT_PROCESS environment
 * variable (JSON MerchantProcessConfig). Its handler records what it does in
 * Redis, where it survives a SIGKILL of this process: a run under
 * `<namespace>:t:runs`, the effect under `<namespace>:t:effects` (counted:
 * what a plain side effect, an e-mail or an ERP call, amounts to) and
 * `<namespace>:t:keyed` (written once per event key: an effect made
 * idempotent by the event's dedupe key). Reports `listening` and each
 * `started` run over IPC.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { dedupeKeyOf } from '@paymount/core';
import { Redis } from 'ioredis';
import { startQueuedApp } from './queued-app';
import { recordKeys, type MerchantProcessConfig, type ProcessMessage } from './records';

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

const effect = async (key: string) => {
  await redis.multi().hincrby(keys.effects, key, 1).hsetnx(keys.keyed, key, String(process.pid)).exec();
};

const app = await startQueuedApp(config.app, async (event) => {
  const key = await dedupeKeyOf(event);
  await redis.hincrby(keys.runs, key, 1);
  report({ kind: 'started', key, pid: process.pid });
  if (behaviour.effectAt === 'start') await effect(key);
  await sleep(behaviour.handlerMs);
  if (behaviour.failWhileBroken && (await redis.exists(keys.broken)) === 1) throw new Error('the ERP is down (test)');
  if (behaviour.effectAt === 'end') await effect(key);
});

process.on('disconnect', () => {
  void Promise.all([app.close(), redis.quit()]).finally(() => process.exit(0));
});
report({ kind: 'listening', routesUrl: app.routesUrl });
