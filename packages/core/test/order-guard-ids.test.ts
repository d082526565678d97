import { describe, expect, it } from 'vitest';
import { createPaymentClient, createPaymentRoutes, MemoryOrderAttemptStore, paysOrder, silentLogger } from '../src/index';
import { requestIdSource, transactionRequestIdSchema, withAttempt } from '../src/entries/internal';
import type { PaymentEvent, PaymentEventAmount, PaymentRoutesOptions, PaymentSucceededEvent } from '../src/index';
import { orderAppsClosedAfterEach } from './support/order-app';
import { validationErrorOf } from './support/validation-error';

const account = { appId: 'app_1', merchantId: 'mch_1' };

describe('requestIdSource', () => {
  const ids = requestIdSource(account);

  it('derives ids the service takes (the transactionRequestId rule), the same every time, one per attempt', async () => {
    for (const sequence of [0, 1, 35, 36, 36 ** 7 - 1]) {
      const id = await ids.idOf('order-0001|*x', sequence);
      expect(transactionRequestIdSchema.safeParse(id).success).toBe(true);
      expect(await ids.idOf('order-0001|*x', sequence)).toBe(id);
      expect(await ids.sequenceOf('order-0001|*x', id)).toBe(sequence);
    }
    expect(new Set(await Promise.all([0, 1, 2].map((sequence) => ids.idOf('order-0001', sequence)))).size).toBe(3);
  });

  it("tells its own ids from another order's, another account's, a keyed source's, and random ones", async () => {
    const id = await ids.idOf('order-0001', 0);
    expect(await ids.sequenceOf('order-0002', id)).toBeUndefined();
    expect(await requestIdSource({ ...account, merchantId: 'mch_2' }).sequenceOf('order-0001', id)).toBeUndefined();
    const keyed = requestIdSource(account, 'k'.repeat(32));
    expect(await keyed.idOf('order-0001', 0)).not.toBe(id);
    expect(await keyed.sequenceOf('order-0001', id)).toBeUndefined();
    expect(await ids.sequenceOf('order-0001', 'a1b2c3d4e5f60718293a4b5c6d7e8f90')).toBeUndefined();
    expect(await ids.sequenceOf('order-0001', `${id.slice(0, -1)}-`)).toBeUndefined();
  });
});

describe('orders.lockTtlMs', () => {
  const options = (overrides: Partial<PaymentRoutesOptions>): PaymentRoutesOptions => ({
    client: { apiKey: 'sk_test_handlers_0123456789', baseUrl: 'https://payments.example.com', ...account, deadlineMs: 10_000 },
    resolveOrder: () => null,
    webhook: { secret: 'whsec_handlers_test_secret' },
    logger: false,
    ...overrides,
  });


  it("is refused at start-up below twice the client's deadline, naming the option and the floor", () => {
    const error = validationErrorOf(() => createPaymentRoutes(options({ orders: { lockTtlMs: 19_999 } })));
    expect(error.issues).toEqual([expect.objectContaining({ path: 'orders.lockTtlMs', rule: 'lock_outlives_calls' })]);
    expect(error.message).toContain('20000');
  });

  it("reads the deadline of a client given as an object from the client", async () => {
    const client = createPaymentClient({ apiKey: 'sk_test_handlers_0123456789', baseUrl: 'https://payments.example.com', ...account, deadlineMs: 1_000 });
    try {
      expect(validationErrorOf(() => createPaymentRoutes(options({ client, orders: { lockTtlMs: 1_500 } }))).issues[0]?.path).toBe('orders.lockTtlMs');
      const routes = createPaymentRoutes(options({ client, orders: { lockTtlMs: 2_000 } }));
      await routes.close();
    } finally {
      await client.close();
    }
  });
});

describe('event.attempt', () => {
  const app = orderAppsClosedAfterEach();

  it('a payment the routes made says so, with its amount; one made outside them, naming the order, is not issued', async () => {
    const shop = await app();
    const orderId = shop.order();
    const paid = await shop.pay(orderId);
    expect(paid.json).toMatchObject({ status: 'succeeded' });
    // A 1-cent payment naming the same order, made with the account's key but not through the routes.
    const other = shop.order();
    const outside = await shop.paymentRoutes.client.directPayment({
      referenceOrderId: other,
      amount: { orderAmount: 1, priceCurrency: 'USD' },
      description: 'Not from the shop',
      cardEncryptedData: shop.sandbox.mintWalletToken(),
      notifyUrl: `${shop.routesUrl}/webhook`,
    });
    expect(outside.status).toBe('succeeded');
    await shop.sandbox.waitForDeliveries();
    const ofOrder = (id: string) => shop.events.filter((event) => event.referenceOrderId === id && event.type === 'payment.succeeded');
    expect(ofOrder(orderId).map((event) => (event.type === 'payment.succeeded' ? event.attempt : undefined))).toEqual([
      { issued: true, amountMatches: true },
    ]);
    expect(ofOrder(other).map((event) => (event.type === 'payment.succeeded' ? event.attempt : undefined))).toEqual([{ issued: false }]);
  });

  it('a reconciled payment carries it too', async () => {
    const shop = await app({ options: () => ({ notifyUrl: () => undefined }) });
    const orderId = shop.order();
    await shop.pay(orderId);
    shop.sandbox.clock.advance(120_000);
    expect(await shop.paymentRoutes.reconcile()).toMatchObject({ settled: 1 });
    expect(shop.events.map((event) => (event.type === 'payment.succeeded' ? event.attempt : undefined))).toEqual([
      { issued: true, amountMatches: true },
    ]);
  });
});

describe('withAttempt', () => {
  const requestIds = requestIdSource(account);
  const orders = {
    store: new MemoryOrderAttemptStore(),
    lockTtlMs: 1_000,
    attemptTtlMs: 60_000,
    clock: Date,
    logger: silentLogger,
    requestIds,
    lateArrivalMs: 1_000,
  };
  const event = (transactionRequestId: string, amount: PaymentEventAmount): PaymentEvent => ({
    type: 'payment.succeeded',
    deliveryId: 'd1',
    timestamp: 0,
    payload: {},
    transactionId: 'txn_1',
    transactionRequestId,
    transactionType: 'SALE',
    transactionStatus: 'S',
    referenceOrderId: 'order-0001',
    amount,
  });

  it("compares the event's total and currency with the amount the order's recorded attempt was made for", async () => {
    const id = await requestIds.idOf('order-0001', 1);
    await orders.store.put(
      { referenceOrderId: 'order-0001', kind: 'wallet', transactionRequestId: id, sequence: 1, state: 'pending', amount: 1350, currency: 'USD', updatedAt: 0 },
      60_000,
    );
    const attemptOf = async (transactionRequestId: string, amount: PaymentEventAmount) => {
      const annotated = await withAttempt(orders, event(transactionRequestId, amount));
      return annotated.type === 'payment.succeeded' ? annotated.attempt : undefined;
    };
    expect(await attemptOf(id, { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' })).toEqual({ issued: true, amountMatches: true });
    expect(await attemptOf(id, { orderAmount: 1, priceCurrency: 'USD' })).toEqual({ issued: true, amountMatches: false });
    expect(await attemptOf(id, { orderAmount: 1350, priceCurrency: 'EUR' })).toEqual({ issued: true, amountMatches: false });
    expect(await attemptOf(await requestIds.idOf('order-0001', 0), { orderAmount: 1350, priceCurrency: 'USD' })).toEqual({ issued: true });
    expect(await attemptOf('someone-elses-id', { orderAmount: 1350, priceCurrency: 'USD' })).toEqual({ issued: false });
  });
});

describe('paysOrder', () => {
  const succeeded = (amount: PaymentEventAmount, attempt?: PaymentSucceededEvent['attempt']): PaymentSucceededEvent => ({
    type: 'payment.succeeded',
    deliveryId: 'd1',
    timestamp: 0,
    payload: {},
    transactionId: 'txn_1',
    transactionRequestId: 'pm-0',
    transactionType: 'SALE',
    transactionStatus: 'S',
    referenceOrderId: 'order-0001',
    amount,
    ...(attempt === undefined ? {} : { attempt }),
  });
  const order = { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' };

  it('the payable total and currency of the order, from a payment the routes made', () => {
    expect(paysOrder(succeeded({ orderAmount: 1250, taxAmount: 100, surchargeAmount: 0, priceCurrency: 'USD' }, { issued: true, amountMatches: true }), order)).toBe(true);
    expect(paysOrder(succeeded({ orderAmount: 1350, priceCurrency: 'USD' }), order)).toBe(true);
  });

  it('not a payment made outside the routes, of another amount or currency, or of a part missing', () => {
    expect(paysOrder(succeeded({ orderAmount: 1350, priceCurrency: 'USD' }, { issued: false }), order)).toBe(false);
    expect(paysOrder(succeeded({ orderAmount: 1350, priceCurrency: 'USD' }, { issued: true, amountMatches: false }), order)).toBe(false);
    expect(paysOrder(succeeded({ orderAmount: 1, priceCurrency: 'USD' }, { issued: true }), order)).toBe(false);
    expect(paysOrder(succeeded({ orderAmount: 1350, priceCurrency: 'EUR' }, { issued: true }), order)).toBe(false);
    expect(paysOrder(succeeded({ priceCurrency: 'USD' }), order)).toBe(false);
  });
});
