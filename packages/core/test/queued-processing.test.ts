import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createPaymentRoutes } from '../src/index';
import type { EventProcessing, QueuedEvent } from '../src/index';
import { orderAppsClosedAfterEach } from './support/order-app';
import { validationErrorOf } from './support/validation-error';

/** Queued processing held in memory: one job per key, as a queue keeps it, run when the test says. */
function memoryQueue() {
  const jobs = new Map<string, QueuedEvent>();
  const queue = {
    jobs,
    enqueued: 0,
    /** How many enqueues it refuses, as a queue whose Redis is down, before it takes them again. */
    refusals: 0,
    async enqueue(queued: QueuedEvent) {
      if (queue.refusals > 0) {
        queue.refusals -= 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      }
      queue.enqueued += 1;
      if (!jobs.has(queued.key)) jobs.set(queued.key, queued);
    },
  } satisfies EventProcessing & Record<string, unknown>;
  return queue;
}

const app = orderAppsClosedAfterEach();

describe('queued processing (webhook.processing)', () => {
  it('the route queues the verified event and answers 200 without running a handler; processEvent runs them once', async () => {
    const queue = memoryQueue();
    const shop = await app({ options: (sandbox) => ({ webhook: { secret: sandbox.webhookSecret, processing: queue } }) });
    const orderId = shop.order();
    expect((await shop.pay(orderId)).json).toMatchObject({ status: 'succeeded' });
    await shop.sandbox.waitForDeliveries();
    const [delivery] = shop.sandbox.deliveries();
    expect(delivery?.attempts).toEqual([expect.objectContaining({ status: 200, answer: '{"received":true,"queued":true}' })]);
    expect(shop.events).toEqual([]);
    const [job] = [...queue.jobs.values()];
    expect(job?.event).toMatchObject({ type: 'payment.succeeded', referenceOrderId: orderId });

    expect(await shop.paymentRoutes.processEvent(job!, { attempt: 1, lastAttempt: false })).toEqual({ outcome: 'handled', handlers: 1 });
    // The same handlers and typed event as inline, annotated with the order's attempt.
    expect(shop.events).toEqual([expect.objectContaining({ type: 'payment.succeeded', attempt: { issued: true, amountMatches: true } })]);
    expect(await shop.paymentRoutes.processEvent(job!, { attempt: 1, lastAttempt: false })).toEqual({ outcome: 'duplicate' });
    expect(shop.events).toHaveLength(1);

    // Handled: a redelivery is a duplicate and is not queued again.
    const again = await shop.sandbox.resend(delivery!.deliveryId);
    expect(again.attempts[0]?.answer).toBe('{"received":true,"duplicate":true}');
    expect(queue.enqueued).toBe(1);
    expect((await shop.status(orderId)).json).toMatchObject({ status: 'succeeded' });
  });

  it('a queue that cannot take the event answers 503, so the service delivers it again', async () => {
    const queue = memoryQueue();
    // Down for the first delivery only: back for the redelivery, however long either takes.
    queue.refusals = 1;
    const shop = await app({ options: (sandbox) => ({ webhook: { secret: sandbox.webhookSecret, processing: queue } }), webhookRetryDelaysMs: [300] });
    await shop.pay(shop.order());
    await shop.sandbox.waitForDeliveries();
    const [delivery] = shop.sandbox.deliveries();
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([503, 200]);
    expect(delivery?.attempts[0]?.answer).toContain('STORE_UNAVAILABLE');
    expect(queue.jobs.size).toBe(1);
  });

  it('reconciliation queues a final outcome the same way; a worker handles it, and the order is settled', async () => {
    const queue = memoryQueue();
    const shop = await app({ options: (sandbox) => ({ webhook: { secret: sandbox.webhookSecret, processing: queue }, notifyUrl: undefined }) });
    await shop.pay(shop.order());
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 0, stillPending: 1, errors: 0 });
    expect(shop.events).toEqual([]);
    const [job] = [...queue.jobs.values()];
    expect(job?.event.deliveryId).toMatch(/^reconciliation:/);

    expect(await shop.paymentRoutes.processEvent(job!, { attempt: 1, lastAttempt: false })).toMatchObject({ outcome: 'handled' });
    expect(shop.events).toHaveLength(1);
    // The worker settled the attempt: nothing is left to reconcile.
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
  });

  it('refuses a processing option without enqueue(), naming it', () => {
    const error = validationErrorOf(() =>
      createPaymentRoutes({
        client: { apiKey: 'sk_test_queued_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
        resolveOrder: () => null,
        webhook: { secret: 'whsec_queued_test_secret', processing: {} as EventProcessing },
        logger: false,
      }),
    );
    expect(error.issues).toEqual([expect.objectContaining({ path: 'webhook.processing', message: expect.stringContaining('enqueue()') })]);
  });
});

describe('inline processing (the default)', () => {
  it('a handler still running after webhook.slowHandlerWarningMs logs a warning that names queued processing', async () => {
    const shop = await app({
      options: (sandbox) => ({ webhook: { secret: sandbox.webhookSecret, slowHandlerWarningMs: 100 } }),
      beforeEvent: () => sleep(400),
    });
    await shop.pay(shop.order());
    await shop.sandbox.waitForDeliveries();
    expect(shop.events).toHaveLength(1);
    const warnings = shop.logLines.filter((line) => line.startsWith('warn') && line.includes('still running after 100 ms'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('webhook.processing');
    expect(warnings[0]).toContain('@paymount/bullmq');
    expect(warnings[0]).toContain('"type":"payment.succeeded"');
  });

  it('a handler within the budget logs no such warning', async () => {
    const shop = await app({ options: (sandbox) => ({ webhook: { secret: sandbox.webhookSecret, slowHandlerWarningMs: 2_000 } }) });
    await shop.pay(shop.order());
    await shop.sandbox.waitForDeliveries();
    expect(shop.events).toHaveLength(1);
    expect(shop.logLines.filter((line) => line.includes('still running after'))).toEqual([]);
  });
});
