import { signWebhook } from '@paymount/core';
import { describe, expect, it, vi } from 'vitest';
import { postgresSkipped } from '../../../tools/postgres-server';
import { crashRuns, crashSuite, WEBHOOK_RETRIES } from './support/crash-harness';
import { startShopProcess } from './support/shop-processes';
import { startWebhookGate } from './support/webhook-gate';

/** Each point is killed this many times: where the kill lands among the pool's and the lease's work differs from run to run. */
const RUNS_PER_POINT = 3;
/** Each test starts two or three shop processes (TypeScript, through tsx): a busy machine takes tens of seconds for each. */
const CRASH_TEST_MS = 180_000;
/** Every delivery has settled by the end of its retries. */
const DELIVERIES_SETTLED_MS = WEBHOOK_RETRIES.reduce((sum, delay) => sum + delay, 0) + 10_000;

describe.skipIf(postgresSkipped)('a shop process killed with SIGKILL in its "mark paid" handler, then redelivered; the database server crashed', () => {
  const s = crashSuite();

  it.each(crashRuns(RUNS_PER_POINT))('killed %s (run %i): the merchant table holds the effect exactly once, and more redeliveries add nothing', async (point, run) => {
    const { h } = s;
    const orderId = `crash-${point}-${run}`;
    await h.addOrder(orderId);
    // The webhook waits for the payment's answer: a shop killed while its pay route still held the order's lock would
    // leave that lock to lapse (TIMING.lockTtlMs), and the repay below would race it.
    s.gate = await startWebhookGate(`http://127.0.0.1:${h.config.port}/payments/webhook`);
    s.shop = await startShopProcess({ ...h.config, notifyUrl: s.gate.url, crashAt: point });
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    s.gate.open();
    expect(await s.shop.exited).toBe('SIGKILL');
    const charge = h.chargeOf(orderId);
    // What the dead process left: the effect with its mark (after commit), or neither.
    expect((await h.effectsOf(orderId)).effects).toEqual(point === 'after-commit' ? [charge.transactionId] : []);

    s.shop = await startShopProcess(h.config);
    await h.sandbox.waitForDeliveries(DELIVERIES_SETTLED_MS);
    const delivery = h.deliveryOf(charge.transactionId);
    expect(delivery?.state).toBe('delivered');
    // Deliveries during the dead process's lease were told to retry (409); none ran the handler twice.
    const resent = await h.sandbox.resend(delivery!.deliveryId);
    expect(resent.state).toBe('delivered');
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });

    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
    expect(h.chargesOf(orderId)).toHaveLength(1);
  }, CRASH_TEST_MS);

  it.each(['before its webhook', 'once its webhook is handled'] as const)(
    'a database server crash right after a payment is answered, %s: one charge and one effect, after the repay, the reconciliation and the webhook',
    async (when) => {
      const { h } = s;
      const orderId = `db-crash-${when.split(' ')[0]}`;
      await h.addOrder(orderId);
      s.gate = await startWebhookGate(`http://127.0.0.1:${h.config.port}/payments/webhook`);
      if (when === 'once its webhook is handled') s.gate.open();
      s.shop = await startShopProcess({ ...h.config, notifyUrl: s.gate.url });
      await h.freezeWalWriter();
      expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
      const charge = h.chargeOf(orderId);
      if (when === 'once its webhook is handled') await vi.waitFor(() => expect(h.deliveryOf(charge.transactionId)?.state).toBe('delivered'), { timeout: 10_000, interval: 5 });
      await h.crashServer();

      const recovered = await h.recordsOf(orderId);
      console.info(`database crash ${when}: the order's rows after recovery: ${JSON.stringify(recovered)}`);
      if (when === 'before its webhook') {
        // The payment's outcome and the freeing of its lock were answered before they reached the disk, and are gone: the crash was real.
        expect(recovered).toEqual({ state: 'pending', locked: true });
        expect(await h.effectsOf(orderId)).toEqual({ effects: [], paidCount: 0 });
      } else {
        // The webhook was answered 200 only once its effect and mark were on disk: the service will not send it again.
        expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
      }

      // Refused (never charged) while a lock the crash brought back lasts, then answered as paid.
      const refusals = await h.payAgainOnceUnlocked(orderId);
      console.info(`database crash ${when}: the repay was refused ${refusals} times while the order's lock lasted`);
      await h.reconcileUntilSettled(s.shop, orderId);
      expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });

      s.gate.open();
      await h.sandbox.waitForDeliveries(DELIVERIES_SETTLED_MS);
      expect((await h.sandbox.resend(h.deliveryOf(charge.transactionId)!.deliveryId)).state).toBe('delivered');
      expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
      expect(h.chargesOf(orderId)).toHaveLength(1);
    },
    CRASH_TEST_MS,
  );

  it('a database server crash and restart between payments loses nothing: paid orders stay paid, handled events stay handled', async () => {
    const { h } = s;
    s.shop = await startShopProcess(h.config);
    const before = ['restart-1', 'restart-2', 'restart-3'];
    for (const orderId of before) {
      await h.addOrder(orderId);
      expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    }
    await h.addOrder('restart-4');
    await h.sandbox.waitForDeliveries(DELIVERIES_SETTLED_MS);

    h.server.stop('immediate');
    // While it is down: a payment fails before anything is sent (the shop's own order lookup fails first), and a webhook is told to come back.
    expect([500, 503]).toContain((await h.pay('restart-4'))?.status);
    expect(h.chargesOf('restart-4')).toEqual([]);
    const handled = h.deliveryOf(h.chargeOf('restart-1').transactionId)!;
    const { body, headers } = signWebhook({ rawBody: handled.body, secret: h.sandbox.webhookSecret, deliveryId: 'while-down' });
    const whileDown = await fetch(`http://127.0.0.1:${h.config.port}/payments/webhook`, { method: 'POST', headers, body });
    expect(whileDown.status).toBe(503);

    h.server.start();
    for (const orderId of before) {
      const delivery = h.deliveryOf(h.chargeOf(orderId).transactionId)!;
      expect((await h.sandbox.resend(delivery.deliveryId)).state).toBe('delivered');
      // A lock freed just before the crash may be back (its freeing is not flushed): the repay waits for it to lapse.
      await h.payAgainOnceUnlocked(orderId);
    }
    expect(await h.pay('restart-4')).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await h.sandbox.waitForDeliveries(DELIVERIES_SETTLED_MS);
    for (const orderId of [...before, 'restart-4']) {
      expect(await h.effectsOf(orderId)).toEqual({ effects: [h.chargeOf(orderId).transactionId], paidCount: 1 });
    }
  }, CRASH_TEST_MS);
});
