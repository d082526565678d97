import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped } from '../../../tools/postgres-server';
import { crashRuns, startCrashHarness, type CrashHarness } from './support/crash-harness';
import { startShopProcess, stopShopProcess, type ShopProcess } from './support/shop-processes';
import { startWebhookGate, type WebhookGate } from './support/webhook-gate';

/** Each point is killed this many times; each run waits for the dead reconciler's order lock to lapse. */
const RUNS_PER_POINT = 2;

/**
 * Reconciliation hands an outcome no webhook brought to the handlers through
 * the same transactional path: a shop killed there leaves the effect with
 * its mark, or neither, like one killed handling the webhook (crash.test.ts).
 */
describe.skipIf(postgresSkipped)('a shop process killed with SIGKILL in a "mark paid" handler that reconcile() runs', () => {
  let h: CrashHarness;
  let shop: ShopProcess | undefined;
  let gate: WebhookGate | undefined;

  beforeAll(async () => {
    h = await startCrashHarness();
  }, 60_000);

  afterEach(async () => {
    await stopShopProcess(shop, 'SIGKILL');
    await gate?.close();
    gate = undefined;
  });

  afterAll(async () => {
    await h?.close();
  });

  it.each(crashRuns(RUNS_PER_POINT))('killed %s (run %i): the next reconciliation applies the effect once, and the webhook arriving after adds nothing', async (point, run) => {
    const orderId = `reconcile-${point}-${run}`;
    await h.addOrder(orderId);
    // No webhook reaches the shop until the end: the outcome comes through reconciliation.
    gate = await startWebhookGate(`http://127.0.0.1:${h.config.port}/payments/webhook`);
    shop = await startShopProcess({ ...h.config, notifyUrl: gate.url, crashAt: point });
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await expect(shop.reconcile()).rejects.toThrow('ended (SIGKILL)');
    const charge = h.chargeOf(orderId);
    // What the dead process left: the effect with its mark (after commit), or neither.
    expect((await h.effectsOf(orderId)).effects).toEqual(point === 'after-commit' ? [charge.transactionId] : []);

    shop = await startShopProcess({ ...h.config, notifyUrl: gate.url });
    // The dead reconciler held the order's lock and the event's claim: each lapses with its lease, then a run settles the order.
    await h.reconcileUntilSettled(shop, orderId);
    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });

    gate.open();
    await h.sandbox.waitForDeliveries(30_000);
    expect((await h.sandbox.resend(h.deliveryOf(charge.transactionId)!.deliveryId)).state).toBe('delivered');
    expect(await h.pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
    expect(h.chargesOf(orderId)).toHaveLength(1);
  });
});
