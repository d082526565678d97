import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { appConfig } from './support/scenario';
import { waitFor } from './support/wait';

/** The service's own wait for a webhook answer, which the sandbox is told to keep. */
const SERVICE_TIMEOUT_MS = 10_000;
const HANDLER_MS = Number(process.env.HANDLER_MS ?? 30_000);
/** An answer that did not wait for the handler: well inside the service's wait, and far from the handler's time, yet not a race on a loaded machine. */
const QUEUED_ANSWER_MS = 3_000;
/** How long a duplicate is given to (wrongly) start the handler again. */
const SETTLE_MS = 2_000;

describe.skipIf(redisSkipped())('a 30-second handler behind queued processing', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  const started: string[] = [];
  const finished: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookTimeoutMs: SERVICE_TIMEOUT_MS, webhookRetryDelaysMs: [100, 200, 400] });
    const onEvent = async (event: PaymentEvent) => {
      started.push(event.transactionId ?? '-');
      await sleep(HANDLER_MS);
      finished.push(event.transactionId ?? '-');
    };
    app = await startQueuedApp(appConfig(sandbox, redis, 'slow', { workers: { concurrency: 4 } }), onEvent);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('every delivery, its redeliveries too, is answered 200 at the first attempt without waiting for the handler; the handler runs once', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    await waitFor('the handler to start', () => started.length === 1);
    // The service redelivers the same signed body twice while the handler runs.
    const redeliveries = [await sandbox.resend(delivery.deliveryId), await sandbox.resend(delivery.deliveryId)];
    for (const sent of [delivery, ...redeliveries]) {
      expect(sent.state).toBe('delivered');
      expect(sent.attempts).toEqual([expect.objectContaining({ status: 200 })]);
    }
    expect(app.answered).toHaveLength(3);
    for (const answer of app.answered) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(QUEUED_ANSWER_MS);
    }

    await waitFor('the handler to finish', () => finished.length === 1, HANDLER_MS + 10_000);
    // Once handled, a redelivery is a duplicate: nothing is queued or run again.
    const late = await sandbox.resend(delivery.deliveryId);
    expect(late.attempts[0]?.answer).toContain('"duplicate":true');
    await sleep(SETTLE_MS);
    expect(started).toEqual([delivery.payload['transactionId']]);
    expect(finished).toEqual([delivery.payload['transactionId']]);
  }, HANDLER_MS + 30_000);
});
