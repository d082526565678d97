import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { DEFAULT_TIMEOUT_MS } from '../src';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

/** The service's own wait for a webhook answer, which the sandbox is told to keep. */
const SERVICE_TIMEOUT_MS = 10_000;

describe.skipIf(redisSkipped())('an app started while its queue’s Redis is down', () => {
  let queueRedis: RedisServer;
  let storesRedis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const logger = recordingLogger();
  const handled: string[] = [];

  beforeAll(async () => {
    // The stores live elsewhere (another Redis here; PostgreSQL in many apps) and answer: only the queue is down.
    storesRedis = await startRedisServer();
    queueRedis = await startRedisServer();
    await queueRedis.stop();
    // The service retries a non-200 answer, a time-out included, 1 s later, and again.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookTimeoutMs: SERVICE_TIMEOUT_MS, webhookRetryDelaysMs: [1_000, 1_000, 2_000, 4_000] });
    const onEvent = (event: PaymentEvent) => void handled.push(event.transactionId ?? '-');
    const config = appConfig(sandbox, storesRedis, 'queue-down', { queueRedisUrl: queueRedis.url, awaitQueue: false, workers: { concurrency: 1 } });
    app = await startQueuedApp(config, onEvent, { logger });
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await storesRedis?.stop();
    await queueRedis?.stop();
  });

  it('answers 503 within the service’s wait and logs once what to check; once Redis is up, the delivery is queued and handled', async () => {
    const delivering: Promise<Delivery> = sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    await waitFor('the first answer', () => app.answered.length > 0, SERVICE_TIMEOUT_MS + 5_000);
    expect(app.answered[0]!.status).toBe(503);
    // Bounded by the queue's deadline, well within the service's wait, instead of held until the service gives up.
    expect(app.answered[0]!.ms).toBeGreaterThanOrEqual(DEFAULT_TIMEOUT_MS - 50);
    expect(app.answered[0]!.ms).toBeLessThan(SERVICE_TIMEOUT_MS);

    const outage = logger.entries.filter((entry) => entry.message.startsWith('webhook queue: Redis at'));
    expect(outage).toEqual([
      expect.objectContaining({ level: 'error', fields: expect.objectContaining({ queue: 'queue-down', redis: `127.0.0.1:${queueRedis.port}` }) }),
    ]);
    expect(outage[0]!.message).toContain('answered 503');
    expect(outage[0]!.message).toContain('Check the Redis URL the queue was given');
    // ioredis reports each reconnect attempt: those after the first are kept at debug.
    expect(logger.entries.filter((entry) => entry.message === 'webhook queue: connection error').length).toBeGreaterThan(0);
    // The route's own line for the 503 names the queue's deadline and the same fix.
    const refused = logger.entries.find((entry) => entry.message === 'paymount route failed' && entry.fields['status'] === 503);
    expect(String(refused?.fields['message'])).toContain(`did not answer within ${DEFAULT_TIMEOUT_MS} ms`);

    await queueRedis.start();
    const delivery = await delivering;
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts[0]).toMatchObject({ status: 503 });
    // The add that outlived its deadline lands once Redis answers: the service's retry finds the event queued, or already handled.
    expect(delivery.attempts.at(-1)).toMatchObject({ status: 200, answer: expect.stringMatching(/^\{"received":true,"(queued|duplicate)":true\}$/) });
    await waitFor('the handler', () => handled.length === 1);
    expect(handled).toEqual([delivery.payload['transactionId']]);
    expect(logger.entries.filter((entry) => entry.message.startsWith('webhook queue: Redis reachable again'))).toHaveLength(1);
  }, 60_000);
});
