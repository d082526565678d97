import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { jobIdOf, type FailedWebhookJob } from '../src';
import { paymountQueue } from './support/cli';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { appConfig, eventKeyOf } from './support/scenario';
import { waitFor } from './support/wait';

const ATTEMPTS = 3;
const BACKOFF_MS = 100;
/** Each paymount-queue run starts a Node process through tsx: seconds apiece on a busy machine. */
const CLI_TEST_MS = 60_000;

describe.skipIf(redisSkipped())('a handler that keeps failing', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const logger = recordingLogger();
  /** Every run's start, by transaction id. */
  const runs: Array<{ transactionId: string; at: number }> = [];
  const effects: string[] = [];
  let broken = true;
  const cli = (...args: string[]) => paymountQueue([...args, '--redis', redis.url, '--queue', 'dlq']);

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100] });
    const onEvent = (event: PaymentEvent) => {
      runs.push({ transactionId: event.transactionId ?? '-', at: performance.now() });
      if (broken) throw new Error('the ERP is down');
      effects.push(event.transactionId ?? '-');
    };
    app = await startQueuedApp(appConfig(sandbox, redis, 'dlq', { attempts: ATTEMPTS, backoffMs: BACKOFF_MS, workers: { concurrency: 1 } }), onEvent, { logger });
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('is retried with backoff, dead-lettered and logged with its event and cause, not queued again by a redelivery, then listed and retried by paymount-queue: its effect happens once', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: '{"received":true,"queued":true}' })]);
    const key = await eventKeyOf(sandbox, delivery);
    const transactionId = delivery.payload['transactionId'];

    await waitFor('the job to be dead-lettered', async () => (await app.queue.listFailed()).length === 1);
    expect(runs.map((run) => run.transactionId)).toEqual([transactionId, transactionId, transactionId]);
    // Exponential backoff: at least 100 ms, then 200 ms, between runs.
    const gaps = runs.slice(1).map((run, index) => run.at - runs[index]!.at);
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(BACKOFF_MS * 2 ** index));

    const failures = logger.entries.filter((entry) => entry.fields['key'] === key && entry.fields['err'] !== undefined);
    expect(failures.map((entry) => [entry.level, entry.fields['attempt']])).toEqual([
      ['warn', 1],
      ['warn', 2],
      ['error', 3],
    ]);
    const deadLetter = failures[2]!;
    expect(deadLetter.message).toContain('dead-lettered');
    // The command to copy: the queue's Redis and name (not the defaults), so it finds the job from any shell.
    const command = `npx paymount-queue retry ${jobIdOf(key)} --redis ${redis.url} --queue dlq`;
    expect(deadLetter.message).toContain(command);
    expect(deadLetter.fields).toMatchObject({ type: 'payment.succeeded', transactionId, deliveryId: delivery.deliveryId });
    // The routes' logger sends the error on as its name, message and stack.
    expect(deadLetter.fields['err']).toMatchObject({ message: 'the ERP is down' });

    // The service delivers the event again while it is dead-lettered: answered 200, but not queued again (its job is kept as failed).
    const redeliveredWhileFailed = await sandbox.resend(delivery.deliveryId);
    expect(redeliveredWhileFailed.attempts).toEqual([expect.objectContaining({ status: 200 })]);
    await sleep(BACKOFF_MS * 2 ** ATTEMPTS);
    expect(runs).toHaveLength(ATTEMPTS);
    expect(await app.queue.listFailed()).toEqual([expect.objectContaining({ id: jobIdOf(key), attempts: ATTEMPTS })]);

    const listed = await cli('list-failed', '--json');
    expect(listed.code).toBe(0);
    const failed = JSON.parse(listed.stdout) as FailedWebhookJob[];
    expect(failed).toEqual([
      expect.objectContaining({ id: jobIdOf(key), type: 'payment.succeeded', transactionId, attempts: ATTEMPTS, failedReason: 'the ERP is down' }),
    ]);
    expect((await cli('list-failed')).stdout).toContain(`${jobIdOf(key)}\tpayment.succeeded\t${String(transactionId)}\tattempts=3`);

    // The ERP is back: the event is retried by the command the log prints, as copied, and handled once.
    broken = false;
    const retried = await paymountQueue(command.split(' ').slice(2));
    expect(retried).toMatchObject({ code: 0, stdout: `retried ${jobIdOf(key)}\n` });
    await waitFor('the retried job to be handled', () => effects.length === 1);
    expect(effects).toEqual([transactionId]);
    expect(await cli('list-failed')).toMatchObject({ code: 0, stdout: 'no failed webhook jobs\n' });
    expect(await cli('retry', jobIdOf(key))).toMatchObject({ code: 1, stderr: expect.stringContaining('no failed webhook job') });

    // Handled now: a redelivery is a duplicate, nothing runs.
    const redelivered = await sandbox.resend(delivery.deliveryId);
    expect(redelivered.attempts[0]?.answer).toContain('"duplicate":true');
    expect(runs).toHaveLength(4);
  }, CLI_TEST_MS);

  it('retry --all sends every dead-lettered event back; bad usage says how to call it', async () => {
    broken = true;
    const deliveries = await Promise.all([
      sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` }),
      sandbox.trigger('payment.failed', { forwardTo: `${app.routesUrl}/webhook` }),
    ]);
    await waitFor('both jobs to be dead-lettered', async () => (await app.queue.listFailed()).length === 2);
    broken = false;
    expect(await cli('retry', '--all')).toMatchObject({ code: 0, stdout: 'retried 2 failed webhook job(s)\n' });
    const ids = deliveries.map((delivery) => delivery.payload['transactionId']);
    await waitFor('both to be handled', () => ids.every((id) => effects.includes(id as string)));
    expect(await cli('retry', '--all')).toMatchObject({ code: 1, stdout: 'retried 0 failed webhook job(s)\n' });

    expect(await cli('retry')).toMatchObject({ code: 2, stderr: expect.stringContaining('retry needs a job id, or --all') });
    expect(await cli('purge')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command purge') });
  }, CLI_TEST_MS);
});
