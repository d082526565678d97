import { afterEach, describe, expect, it } from 'vitest';
import { MemoryOrderAttemptStore } from '../src/index';
import { SERVICE_TIMESTAMP_REACH_MS } from '../src/entries/internal';
import type { PaymentEvent, PaymentRoutesOptions } from '../src/index';
import { startLateProxy, type LateProxy } from './support/late-proxy';
import { ATTEMPT_TIMEOUT_MS, HELD_ANSWER_MS, orderAppsClosedAfterEach, payHostedPage, type OrderApp } from './support/order-app';

const SALE_PATH = '/v1/checkout/sale';
const CHECKOUT_PATH = '/v1/checkout/create-session';
/** The client gives up on an attempt after 2 s and on the whole call after 2.5 s; the late requests arrive well after. */
const CLIENT_LIMITS = { retry: { maxAttempts: 1 }, timeoutMs: ATTEMPT_TIMEOUT_MS, deadlineMs: 2_500 };
const SLOW_TEST_MS = 30_000;

const app = orderAppsClosedAfterEach();
const proxies: LateProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

/** An order app whose client reaches the sandbox through a proxy that can deliver a request late. */
async function lateShop(options: Partial<PaymentRoutesOptions> = {}): Promise<{ shop: OrderApp; proxy: LateProxy }> {
  let target = '';
  const proxy = await startLateProxy(() => target);
  proxies.push(proxy);
  const shop = await app({
    options: (sandbox) => {
      target = sandbox.url;
      return { client: { ...sandbox.clientOptions(), baseUrl: proxy.url, ...CLIENT_LIMITS }, ...options };
    },
  });
  return { shop, proxy };
}

const eventsOf = (events: PaymentEvent[], referenceOrderId: string) =>
  events.filter((event) => event.referenceOrderId === referenceOrderId).map((event) => event.type);

/** Every transaction the sandbox processed for the order (declined ones too). */
const processed = (shop: OrderApp, orderId: string) => shop.sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);

describe('a payment the service processes after the client gave up', () => {
  it.each([HELD_ANSWER_MS + 1_000, 10_000])(
    'a wallet payment delivered %i ms late, then a checkout: the session goes out under the same id and the late sale is refused; one charge',
    async (lateMs) => {
      const { shop, proxy } = await lateShop();
      const orderId = shop.order();
      proxy.holdNext(SALE_PATH, lateMs);
      const first = await shop.pay(orderId);
      expect(first.json).toMatchObject({ status: 'pending' });
      const checkout = await shop.checkout(orderId);
      expect(checkout.status).toBe(201);
      await proxy.delivered();
      expect(processed(shop, orderId)).toEqual([]);
      expect(await payHostedPage(checkout.json.checkoutUrl as string)).toBeLessThan(400);
      expect(shop.charges(orderId)).toBe(1);
      expect(processed(shop, orderId).map((charge) => charge.transactionRequestId)).toEqual([first.json.transactionRequestId]);
    },
    SLOW_TEST_MS,
  );

  it(
    'a late sale that arrives before the next checkout: the checkout finds it and answers the order paid; one charge',
    async () => {
      const { shop, proxy } = await lateShop();
      const orderId = shop.order();
      proxy.holdNext(SALE_PATH, HELD_ANSWER_MS);
      expect((await shop.pay(orderId)).json).toMatchObject({ status: 'pending' });
      await proxy.delivered();
      const again = await shop.checkout(orderId);
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({ error: { code: 'ORDER_ALREADY_PAID' } });
      expect(shop.charges(orderId)).toBe(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'GET /status while the sale is on its way answers pending and keeps the attempt; paying again reuses its id; one charge',
    async () => {
      const { shop, proxy } = await lateShop();
      const orderId = shop.order();
      proxy.holdNext(SALE_PATH, 'released');
      const first = await shop.pay(orderId);
      expect(first.json).toMatchObject({ status: 'pending' });
      shop.sandbox.clock.advance(6_000);
      expect((await shop.status(orderId)).json).toMatchObject({ status: 'pending' });
      const again = await shop.pay(orderId);
      expect(again.json).toMatchObject({ status: 'succeeded', transactionRequestId: first.json.transactionRequestId });
      proxy.release();
      await proxy.delivered();
      expect(shop.charges(orderId)).toBe(1);
      expect(processed(shop, orderId)).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );

  it(
    'without notifyUrl, reconcile() keeps asking while the request may arrive and hands the late charge to the handlers once',
    async () => {
      const { shop, proxy } = await lateShop({ notifyUrl: () => undefined });
      const orderId = shop.order();
      proxy.holdNext(SALE_PATH, 'released');
      expect((await shop.pay(orderId)).json).toMatchObject({ status: 'pending' });
      expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 0, stillPending: 1, errors: 0 });
      proxy.release();
      await proxy.delivered();
      expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 });
      expect(eventsOf(shop.events, orderId)).toEqual(['payment.succeeded']);
      expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
      const again = await shop.pay(orderId);
      expect(again.json).toMatchObject({ status: 'succeeded', alreadyPaid: true });
      expect(shop.charges(orderId)).toBe(1);
    },
    SLOW_TEST_MS,
  );

  it('a request that never arrives: refused while it still could, for another amount; after the window, the order pays under its next id', async () => {
    const { shop, proxy } = await lateShop({ notifyUrl: () => undefined });
    const orderId = shop.order();
    proxy.holdNext(SALE_PATH, 'never');
    const startedAt = shop.sandbox.clock.now();
    const first = await shop.pay(orderId);
    expect(first.json).toMatchObject({ status: 'pending' });
    shop.updateOrder(orderId, { amount: { orderAmount: 50_000, priceCurrency: 'USD' } });
    const refused = await shop.pay(orderId);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'PAYMENT_PENDING' } });
    // The window runs from the call's start: its deadline, then the service's timestamp reach. What
    // a busy machine spent since the start is off it, so the bound is read off the routes' clock.
    const windowMs = CLIENT_LIMITS.deadlineMs + SERVICE_TIMESTAMP_REACH_MS;
    const windowLeftMs = startedAt + windowMs - shop.sandbox.clock.now();
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(Math.floor(windowLeftMs / 1000));
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(Math.ceil(windowMs / 1000));
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ stillPending: 1 });
    shop.sandbox.clock.advance(SERVICE_TIMESTAMP_REACH_MS + CLIENT_LIMITS.deadlineMs + 1_000);
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 });
    expect(eventsOf(shop.events, orderId)).toEqual([]);
    const paid = await shop.pay(orderId);
    expect(paid.json).toMatchObject({ status: 'succeeded' });
    expect(paid.json.transactionRequestId).not.toBe(first.json.transactionRequestId);
    expect(processed(shop, orderId).map((charge) => charge.payableTotal)).toEqual([50_000]);
  });
});

describe('an order whose record the store lost', () => {
  it('a sale whose answer was held, then the record lost: paying again is answered by the service with that sale; one charge', async () => {
    const store = new MemoryOrderAttemptStore();
    const shop = await app({ options: (sandbox) => ({ client: { ...sandbox.clientOptions(), ...CLIENT_LIMITS }, orders: { store } }) });
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: HELD_ANSWER_MS });
    const first = await shop.pay(orderId);
    expect(first.json).toMatchObject({ status: 'pending' });
    await store.delete(orderId);
    const again = await shop.pay(orderId);
    expect(again.json).toMatchObject({ status: 'succeeded', transactionRequestId: first.json.transactionRequestId });
    expect(processed(shop, orderId)).toHaveLength(1);
  });

  it('an open session, then the record lost: the next checkout gets that same session, never a second payable one', async () => {
    const store = new MemoryOrderAttemptStore();
    const shop = await app({ options: () => ({ orders: { store } }) });
    const orderId = shop.order();
    const first = await shop.checkout(orderId);
    await store.delete(orderId);
    const second = await shop.checkout(orderId);
    expect(second.json.checkoutUrl).toBe(first.json.checkoutUrl);
    expect(await payHostedPage(second.json.checkoutUrl as string)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
  });

  it('a session that expired, then the record lost: the service answers the old session, and the checkout moves on to a new one', async () => {
    const store = new MemoryOrderAttemptStore();
    const shop = await app({ options: () => ({ orders: { store } }) });
    const orderId = shop.order();
    const first = await shop.checkout(orderId);
    shop.sandbox.clock.advance(31 * 60_000);
    await store.delete(orderId);
    const second = await shop.checkout(orderId);
    expect(second.status).toBe(201);
    expect(second.json.checkoutUrl).not.toBe(first.json.checkoutUrl);
    expect(Date.parse(second.json.expiresAt as string)).toBeGreaterThan(shop.sandbox.clock.now());
    expect(await payHostedPage(second.json.checkoutUrl as string)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
  });

  it('a paid order, then the record lost: a wallet payment is answered by the service with the first sale; one charge', async () => {
    const store = new MemoryOrderAttemptStore();
    const shop = await app({ options: () => ({ orders: { store } }) });
    const orderId = shop.order();
    const first = await shop.pay(orderId);
    await store.delete(orderId);
    const again = await shop.pay(orderId);
    expect(again.json).toMatchObject({ status: 'succeeded', transactionId: first.json.transactionId });
    expect(processed(shop, orderId)).toHaveLength(1);
  });
});

describe('an order whose amount changed after its session opened', () => {
  it('the next checkout ends the old session and opens one for the new amount', async () => {
    const shop = await app();
    const orderId = shop.order();
    const old = await shop.checkout(orderId);
    shop.updateOrder(orderId, { amount: { orderAmount: 50_000, priceCurrency: 'USD' } });
    const raised = await shop.checkout(orderId);
    expect(raised.json.checkoutUrl).not.toBe(old.json.checkoutUrl);
    expect(await payHostedPage(old.json.checkoutUrl as string)).toBe(410);
    expect(await payHostedPage(raised.json.checkoutUrl as string)).toBeLessThan(400);
    expect(processed(shop, orderId).map((charge) => charge.payableTotal)).toEqual([50_000]);
  });

  it('the same amount in another currency is another charge too', async () => {
    const shop = await app();
    const orderId = shop.order();
    const old = await shop.checkout(orderId);
    shop.updateOrder(orderId, { amount: { orderAmount: 1250, priceCurrency: 'EUR' } });
    const other = await shop.checkout(orderId);
    expect(other.json.checkoutUrl).not.toBe(old.json.checkoutUrl);
    expect(await payHostedPage(old.json.checkoutUrl as string)).toBe(410);
  });
});

describe('cancelCheckout of a session whose answer was lost', () => {
  it('names the session again under its id and expires it', async () => {
    const shop = await app();
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'reset-after', path: CHECKOUT_PATH });
    expect((await shop.checkout(orderId)).status).toBe(502);
    const cancelled = await shop.paymentRoutes.cancelCheckout(orderId);
    expect(cancelled).toMatchObject({ outcome: 'cancelled', sessionId: expect.any(String) });
    const sessionId = cancelled.outcome === 'cancelled' ? cancelled.sessionId : '';
    expect(await payHostedPage(`${shop.sandbox.url}/hosted/checkout/${sessionId}`)).toBe(410);
    const fresh = await shop.checkout(orderId);
    expect(fresh.status).toBe(201);
    expect(fresh.json.sessionId).not.toBe(sessionId);
  });

  it('one whose request never reached the service: opened now under that id and expired, so a late copy opens nothing payable', async () => {
    const { shop, proxy } = await lateShop();
    const orderId = shop.order();
    proxy.holdNext(CHECKOUT_PATH, 'released');
    const lost = await shop.checkout(orderId);
    expect(lost.status).toBe(504);
    const cancelled = await shop.paymentRoutes.cancelCheckout(orderId);
    expect(cancelled).toMatchObject({ outcome: 'cancelled' });
    proxy.release();
    await proxy.delivered();
    // The late copy was answered with the session already expired: it opened nothing the shopper could pay.
    const sessionId = cancelled.outcome === 'cancelled' ? cancelled.sessionId : '';
    expect(await payHostedPage(`${shop.sandbox.url}/hosted/checkout/${sessionId}`)).toBe(410);
    const fresh = await shop.checkout(orderId);
    expect(fresh.json.sessionId).not.toBe(sessionId);
    expect(await payHostedPage(fresh.json.checkoutUrl as string)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
  });
});
