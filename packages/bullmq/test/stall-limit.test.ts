import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { captureTelemetry, type TelemetryCapture } from '../../../tools/telemetry-testing';
import { jobIdOf } from '../src';
import { paymountQueue } from './support/cli';
import { killMerchantProcess, startMerchantProcess, type MerchantProcess } from './support/processes';
import { startQueuedApp, type QueuedApp, type QueuedAppConfig } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { recordKeys } from './support/records';
import { adminClient, appConfig, counts, eventKeyOf, FAST_RECOVERY } from './support/scenario';
import { waitFor } from './support/wait';

/** Kills a job survives: one more and BullMQ fails it without running it again. */
const MAX_STALLED = 1;
/** BullMQ's failedReason for a job that lost its worker more than maxStalledCount times. */
const STALL_LIMIT_REASON = 'job stalled more than allowable limit';

describe.skipIf(redisSkipped())('a job whose worker process is killed (SIGKILL) while it runs', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let admin: Redis;
  const apps: QueuedApp[] = [];
  const captures: TelemetryCapture[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400] });
    admin = adminClient(redis);
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await Promise.all(captures.splice(0).map((capture) => capture.close()));
  });
  afterAll(async () => {
    await admin?.quit();
    await sandbox?.close();
    await redis?.stop();
  });

  /**
   * An app that only queues (its workers started later, in this process, traced and logged), one
   * event delivered to it, and `kills` worker processes in turn, each SIGKILLed once it has started
   * the event's handler (which would run for a minute).
   */
  async function eventKilledMidRun(namespace: string, kills: number, maxStalledCount: number) {
    const logger = recordingLogger();
    const capture = captureTelemetry();
    captures.push(capture);
    const handled: PaymentEvent[] = [];
    const config: QueuedAppConfig = appConfig(sandbox, redis, namespace, { processingTtlMs: FAST_RECOVERY.processingTtlMs });
    const app = await startQueuedApp(config, (event) => void handled.push(event), { logger, telemetry: capture.telemetry });
    apps.push(app);
    const workers = { ...FAST_RECOVERY.workers, maxStalledCount };
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    const key = await eventKeyOf(sandbox, delivery);
    const killed: MerchantProcess[] = [];
    for (let kill = 0; kill < kills; kill += 1) {
      const worker = await startMerchantProcess({ app: { ...config, serve: false, workers }, behaviour: { handlerMs: 60_000, effectAt: 'end' } });
      await waitFor('the worker process to start the handler', () => worker.started.length > 0);
      await killMerchantProcess(worker);
      killed.push(worker);
    }
    app.startWorkers(workers);
    return { app, key, delivery, logger, capture, handled, killed, records: recordKeys(namespace) };
  }

  it('killed maxStalledCount + 1 times: dead-lettered without another run, logged as an error naming the event, the cause and paymount-queue retry, counted as a dead letter; the retry runs it once', async () => {
    const { app, key, delivery, logger, capture, handled, records } = await eventKilledMidRun('stall-limit', MAX_STALLED + 1, MAX_STALLED);

    await waitFor('the job to be dead-lettered', async () => (await app.queue.listFailed()).length === 1);
    expect(await app.queue.listFailed()).toEqual([expect.objectContaining({ id: jobIdOf(key), type: 'payment.succeeded', failedReason: STALL_LIMIT_REASON })]);
    // Two runs, both killed; BullMQ failed the job instead of starting a third.
    expect(await counts(admin, records.runs)).toEqual({ [key]: MAX_STALLED + 1 });
    expect(handled).toEqual([]);

    const deadLetters = logger.entries.filter((entry) => entry.level === 'error' && entry.fields['key'] === key);
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0]!.fields).toMatchObject({ type: 'payment.succeeded', transactionId: delivery.payload['transactionId'], deliveryId: delivery.deliveryId });
    expect(deadLetters[0]!.fields['err']).toMatchObject({ message: STALL_LIMIT_REASON });
    expect(deadLetters[0]!.message).toContain('dead-lettered');
    expect(deadLetters[0]!.message).toContain('maxStalledCount');
    // The command to copy names the queue's Redis and name: run elsewhere, it finds the job.
    expect(deadLetters[0]!.message).toContain(`npx paymount-queue retry ${jobIdOf(key)} --redis ${redis.url} --queue stall-limit`);
    expect(await capture.total('paymount.webhook.dead_letters', { 'paymount.event.type': 'payment.succeeded' })).toBe(1);

    expect(await paymountQueue(['retry', key, '--redis', redis.url, '--queue', 'stall-limit'])).toMatchObject({ code: 0, stdout: `retried ${key}\n` });
    await waitFor('the retried event to be handled', () => handled.length === 1);
    expect(handled.map((event) => event.transactionId)).toEqual([delivery.payload['transactionId']]);
    expect(await app.queue.listFailed()).toEqual([]);
    expect(await capture.total('paymount.webhook.dead_letters', { 'paymount.event.type': 'payment.succeeded' })).toBe(1);
  }, 90_000);

  it('killed once: the run that takes the job over counts as a retry', async () => {
    const { delivery, capture, handled } = await eventKilledMidRun('stall-retry', 1, MAX_STALLED);
    await waitFor('the job to be taken over and handled', () => handled.length === 1);
    expect(handled.map((event) => event.transactionId)).toEqual([delivery.payload['transactionId']]);

    const type = { 'paymount.event.type': 'payment.succeeded' };
    // The run is recorded once it has marked the event handled, after the handler returned: under load, a moment after.
    const handledRuns = () => capture.total('paymount.webhook.job.duration', { ...type, 'paymount.webhook.job.result': 'handled' });
    await waitFor('the run to be recorded as handled', async () => (await handledRuns()) > 0);
    expect(await handledRuns()).toBe(1);
    // Every run here came after the killed one (a run finding the dead worker's claim not yet lapsed is one more).
    const runsHere = capture.spans().filter((span) => span.name === 'paymount webhook process');
    expect(runsHere.length).toBeGreaterThanOrEqual(1);
    expect(runsHere.map((span) => span.attributes['paymount.attempt'])).toEqual(runsHere.map(() => 2));
    expect(await capture.total('paymount.webhook.job.retries', type)).toBe(runsHere.length);
    expect(await capture.total('paymount.webhook.dead_letters', type)).toBe(0);
  }, 60_000);
});
