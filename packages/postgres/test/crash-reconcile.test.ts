import { describe, expect, it } from 'vitest';
import { postgresSkipped } from '../../../tools/postgres-server';
import { crashRuns, crashSuite } from './support/crash-harness';
import { startShopProcess } from './support/shop-processes';
import { startWebhookGate } from './support/webhook-gate';

/** Each point is killed this many times; each run waits for the dead reconciler's order lock to lapse. */
const RUNS_PER_POINT = 2;

/**
 * Reconciliation hands an outcome no webhook brought to the handlers through
 * the same transactional path: a shop killed there leaves the effect with
 * its mark, or neither, like one killed handling the webhook (crash.test.ts).
 */
describe.skipIf(postgresSkipped)('a shop process killed with SIGKILL in a "mark paid" handler that reconcile() runs', () => {
  const s = crashSuite();

  it.each(crashRuns(RUNS_PER_POINT))('killed %s (run %i): the next reconciliation applies the effect once, and the webhook arriving after adds nothing', async (point, run) => {
    const { h } = s;
    const orderId = `reconcile-${point}-${run}`;
    await h.addOrder(orderId);
    // No webhook reaches the shop until the end: the outcome comes through reconciliation.
    s.gate = await startWebhookGate(`http://127.0.0.1:${h.config.port}/payments/webhook`);
    s.shop = await startShopProcess({ ...h.config, notifyUrl: s.gate.url, crashAt: point });
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await expect(s.shop.reconcile()).rejects.toThrow('ended (SIGKILL)');
    const charge = h.chargeOf(orderId);
    // What the dead process left: the effect with its mark (after commit), or neither.
    expect((await h.effectsOf(orderId)).effects).toEqual(point === 'after-commit' ? [charge.transactionId] : []);

    s.shop = await startShopProcess({ ...h.config, notifyUrl: s.gate.url });
    // The dead reconciler held the order's lock and the event's claim: each lapses with its lease, then a run settles the order.
    await h.reconcileUntilSettled(s.shop, orderId);
    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });

    s.gate.open();
    await h.sandbox.waitForDeliveries(30_000);
    expect((await h.sandbox.resend(h.deliveryOf(charge.transactionId)!.deliveryId)).state).toBe('delivered');
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
    expect(h.chargesOf(orderId)).toHaveLength(1);
  });
});
