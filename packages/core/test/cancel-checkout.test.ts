import { describe, expect, it } from 'vitest';
import { MemoryOrderAttemptStore, PaymentRouteError, PaymentValidationError } from '../src/index';
import { holdSucceededEvents, orderAppsClosedAfterEach, payHostedPage, type OrderApp } from './support/order-app';

const app = orderAppsClosedAfterEach();

async function openCheckout(shop: OrderApp, orderId: string): Promise<{ checkoutUrl: string; sessionId: string }> {
  const answer = await shop.checkout(orderId);
  expect(answer.status).toBe(201);
  return answer.json as { checkoutUrl: string; sessionId: string };
}

/** The hosted page as the shopper's browser loads it. */
async function hostedPageStatus(checkoutUrl: string): Promise<number> {
  const response = await fetch(checkoutUrl);
  await response.arrayBuffer();
  return response.status;
}

describe('handlers.cancelCheckout()', () => {
  it('expires the open session: its page answers 410, the C webhook reaches the handlers, and the order checks out again', async () => {
    const shop = await app();
    const orderId = shop.order();
    const first = await openCheckout(shop, orderId);

    expect(await shop.paymentRoutes.cancelCheckout(orderId)).toEqual({ outcome: 'cancelled', sessionId: first.sessionId });
    expect(await hostedPageStatus(first.checkoutUrl)).toBe(410);
    expect(await payHostedPage(first.checkoutUrl)).toBe(410);
    expect((await shop.status(orderId)).json).toMatchObject({ status: 'closed' });
    await shop.sandbox.waitForDeliveries();
    const closed = shop.events.filter((event) => event.referenceOrderId === orderId).map((event) => [event.type, 'sessionId' in event ? event.sessionId : undefined]);
    expect(closed).toEqual([['payment.closed', first.sessionId]]);

    const second = await openCheckout(shop, orderId);
    expect(second.checkoutUrl).not.toBe(first.checkoutUrl);
    expect(await payHostedPage(second.checkoutUrl)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
    // Nothing left to cancel once the order is paid.
    expect(await shop.paymentRoutes.cancelCheckout(orderId)).toMatchObject({ outcome: 'already-paid' });
  });

  it('a session paid on its page while its webhook is still being handled: already-paid, nothing expired', async () => {
    const { setup, reached, held } = holdSucceededEvents();
    const shop = await app(setup);
    const orderId = shop.order();
    const { checkoutUrl } = await openCheckout(shop, orderId);
    expect(await payHostedPage(checkoutUrl)).toBeLessThan(400);
    await reached.opened;

    const result = await shop.paymentRoutes.cancelCheckout(orderId);
    const [charge] = shop.sandbox.charges().filter((entry) => entry.referenceOrderId === orderId);
    expect(result).toEqual({ outcome: 'already-paid', transactionId: charge?.transactionId });
    held.open();
    await shop.sandbox.waitForDeliveries();
    expect(shop.events.filter((event) => event.referenceOrderId === orderId).map((event) => event.type)).toEqual(['payment.succeeded']);
    expect((await shop.status(orderId)).json).toMatchObject({ status: 'succeeded' });
  });

  it('an order with no open session: no checkout yet, a wallet payment, or a cancelled one cancelled again', async () => {
    const shop = await app();
    const untouched = shop.order();
    expect(await shop.paymentRoutes.cancelCheckout(untouched)).toEqual({ outcome: 'no-open-checkout' });

    const declined = shop.order({ amount: { orderAmount: 8888, priceCurrency: 'USD' } });
    expect((await shop.pay(declined)).json).toMatchObject({ status: 'failed' });
    expect(await shop.paymentRoutes.cancelCheckout(declined)).toEqual({ outcome: 'no-open-checkout' });

    const abandoned = shop.order();
    await openCheckout(shop, abandoned);
    expect(await shop.paymentRoutes.cancelCheckout(abandoned)).toMatchObject({ outcome: 'cancelled' });
    expect(await shop.paymentRoutes.cancelCheckout(abandoned)).toEqual({ outcome: 'no-open-checkout' });
  });

  it('while a payment request holds the order: PAYMENT_IN_PROGRESS, and the session stays open', async () => {
    const store = new MemoryOrderAttemptStore();
    const shop = await app({ options: () => ({ orders: { store } }) });
    const orderId = shop.order();
    const { checkoutUrl } = await openCheckout(shop, orderId);
    // Another instance's payment request holding the order's lock.
    expect(await store.lock(orderId, 60_000)).toEqual(expect.any(String));

    const refused = await shop.paymentRoutes.cancelCheckout(orderId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentRouteError);
    expect(refused).toMatchObject({ code: 'PAYMENT_IN_PROGRESS', httpStatus: 409 });
    expect(await hostedPageStatus(checkoutUrl)).toBe(200);
  });

  it('refuses an invalid referenceOrderId before asking anything, naming the rule', async () => {
    const shop = await app();
    const refused = await shop.paymentRoutes.cancelCheckout('x').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentValidationError);
    expect((refused as PaymentValidationError).issues).toEqual([
      { path: 'referenceOrderId', rule: 'min_length', message: 'must be at least 6 characters' },
    ]);
  });
});
