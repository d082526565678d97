import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { captureTelemetry, childrenOf, type TelemetryCapture } from '../../../tools/telemetry-testing';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

// OpenTelemetry's SpanKind values, as the SDK exports them.
const SPAN_KIND = { SERVER: 1, PRODUCER: 3, CONSUMER: 4 };

describe.skipIf(redisSkipped())('queued processing, traced and measured', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  let capture: TelemetryCapture;
  const handled: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100] });
    capture = captureTelemetry();
    // A failed payment's handler always fails: with two attempts, it is retried once, then dead-lettered.
    const onEvent = (event: PaymentEvent) => {
      if (event.type === 'payment.failed') throw new Error('cannot handle a failed payment (test)');
      handled.push(event.type);
    };
    app = await startQueuedApp(appConfig(sandbox, redis, 'otel', { attempts: 2, backoffMs: 50, workers: { concurrency: 1 } }), onEvent, {
      telemetry: capture.telemetry,
    });
  });
  afterAll(async () => {
    await app?.close();
    await capture?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('the delivery’s trace continues on the worker: route span, enqueue span (producer), job span (consumer, linked)', async () => {
    await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    await waitFor('the job’s span', () => capture.spans().some((span) => span.name === 'paymount webhook process'));
    const spans = capture.spans();
    const route = spans.find((span) => span.name === 'POST /webhook')!;
    expect(route.kind).toBe(SPAN_KIND.SERVER);
    const [enqueue] = childrenOf(spans, route);
    expect(enqueue).toMatchObject({ name: 'paymount webhook enqueue', kind: SPAN_KIND.PRODUCER, attributes: { 'paymount.event.type': 'payment.succeeded' } });
    expect(route.attributes['paymount.webhook.result']).toBe('queued');

    const [job] = childrenOf(spans, enqueue!);
    expect(job).toMatchObject({
      name: 'paymount webhook process',
      kind: SPAN_KIND.CONSUMER,
      attributes: { 'paymount.event.type': 'payment.succeeded', 'paymount.attempt': 1, 'paymount.webhook.job.result': 'handled' },
    });
    expect(job!.spanContext().traceId).toBe(route.spanContext().traceId);
    expect(job!.links.map((link) => link.context.spanId)).toEqual([enqueue!.spanContext().spanId]);
  });

  it('metrics: job duration by result, retries, dead letters, queue depth, queued deliveries', async () => {
    await sandbox.trigger('payment.failed', { forwardTo: `${app.routesUrl}/webhook` });
    await waitFor('the failed payment to be dead-lettered', async () => (await app.queue.listFailed()).length === 1);

    expect(await capture.total('paymount.webhook.job.duration', { 'paymount.event.type': 'payment.succeeded', 'paymount.webhook.job.result': 'handled' })).toBe(1);
    expect(await capture.total('paymount.webhook.job.duration', { 'paymount.event.type': 'payment.failed', 'paymount.webhook.job.result': 'failed' })).toBe(2);
    expect(await capture.total('paymount.webhook.job.retries', { 'paymount.event.type': 'payment.failed' })).toBe(1);
    expect(await capture.total('paymount.webhook.dead_letters', { 'paymount.event.type': 'payment.failed' })).toBe(1);
    expect(await capture.total('paymount.webhook.dead_letters', { 'paymount.event.type': 'payment.succeeded' })).toBe(0);
    expect(await capture.total('paymount.webhook.deliveries', { 'paymount.webhook.result': 'queued' })).toBe(2);
    // Nothing waits now; the gauge is read from the queue at each collection.
    const depth = (await capture.points()).filter((point) => point.name === 'paymount.webhook.queue.depth');
    expect(depth).toEqual([expect.objectContaining({ value: 0 })]);
    const failedSpan = capture.spans().filter((span) => span.name === 'paymount webhook process' && span.attributes['paymount.attempt'] === 2);
    expect(failedSpan.map((span) => span.status)).toEqual([{ code: 2, message: 'handler failed' }]);
  });

  it('the queue-depth gauge counts the jobs waiting while no worker takes them, and falls back to 0 once they ran', async () => {
    const depth = async () => (await capture.points()).filter((point) => point.name === 'paymount.webhook.queue.depth').map((point) => point.value);
    await app.workers!.worker.pause();
    const waiting = 3;
    await Promise.all(Array.from({ length: waiting }, () => sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` })));
    expect(await depth()).toEqual([waiting]);

    const before = handled.length;
    app.workers!.worker.resume();
    await waitFor('the waiting jobs to run', () => handled.length === before + waiting);
    await waitFor('the queue to empty', async () => (await app.queue.depth()) === 0);
    expect(await depth()).toEqual([0]);
  });
});

describe.skipIf(redisSkipped())('a queued event whose dedupe store is down on its last attempt', () => {
  let queueRedis: RedisServer;
  let storesRedis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  let capture: TelemetryCapture;
  const logger = recordingLogger();

  beforeAll(async () => {
    queueRedis = await startRedisServer();
    storesRedis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    capture = captureTelemetry();
    const config = appConfig(sandbox, storesRedis, 'store-down', { queueRedisUrl: queueRedis.url, attempts: 2, backoffMs: 50 });
    app = await startQueuedApp(config, () => {}, { logger, telemetry: capture.telemetry });
  });
  afterAll(async () => {
    await app?.close();
    await capture?.close();
    await sandbox?.close();
    await storesRedis?.stop();
    await queueRedis?.stop();
  });

  it('is dead-lettered, logged as an error saying how to retry it, and counted as a dead letter', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: '{"received":true,"queued":true}' })]);
    await storesRedis.stop();
    app.startWorkers({ concurrency: 1 });
    await waitFor('the job to be dead-lettered', async () => (await app.queue.listFailed()).length === 1);

    const failures = logger.entries.filter((entry) => entry.message.startsWith('webhook job'));
    expect(failures.map((entry) => [entry.level, entry.fields['attempt']])).toEqual([
      ['warn', 1],
      ['error', 2],
    ]);
    expect(failures[1]!.message).toContain('npx paymount-queue retry');
    const type = { 'paymount.event.type': 'payment.succeeded' };
    expect(await capture.total('paymount.webhook.job.retries', type)).toBe(1);
    expect(await capture.total('paymount.webhook.dead_letters', type)).toBe(1);
    const runs = capture.spans().filter((span) => span.name === 'paymount webhook process');
    expect(runs.map((span) => span.status)).toEqual(runs.map(() => ({ code: 2, message: 'event could not be processed' })));
  });
});
