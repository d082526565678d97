import { describe, expect, it, vi } from 'vitest';
import { MemoryOrderAttemptStore, PaymentStoreUnavailableError } from '../src/index';
import type { OrderAttemptStore, PaymentEvent } from '../src/index';
import { gate, HELD_ANSWER_MS, holdSucceededEvents, orderAppsClosedAfterEach, payHostedPage, type OrderAppSetup } from './support/order-app';

const SALE_PATH = '/v1/checkout/sale';
const CHECKOUT_PATH = '/v1/checkout/create-session';

const app = orderAppsClosedAfterEach();

const paymentEvents = (events: PaymentEvent[], referenceOrderId: string) =>
  events.filter((event) => event.referenceOrderId === referenceOrderId).map((event) => event.type);

/** A memory store whose operations can be made to fail. */
function failingStore(failing: Set<keyof OrderAttemptStore>): OrderAttemptStore {
  const inner = new MemoryOrderAttemptStore();
  const fail = (name: keyof OrderAttemptStore) => {
    if (failing.has(name)) throw new Error(`connection refused (${name})`);
  };
  return {
    lock: async (...args) => (fail('lock'), inner.lock(...args)),
    unlock: async (...args) => (fail('unlock'), inner.unlock(...args)),
    get: async (...args) => (fail('get'), inner.get(...args)),
    put: async (...args) => (fail('put'), inner.put(...args)),
    delete: async (...args) => (fail('delete'), inner.delete(...args)),
    settle: async (...args) => (fail('settle'), inner.settle(...args)),
    unsettled: async (...args) => (fail('unsettled'), inner.unsettled(...args)),
  };
}

describe('after a payment whose outcome was not known', () => {
  it('a connection lost after the service charged (reset-after): pending, then paying again is answered paid, charged once', async () => {
    const shop = await app();
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'reset-after', path: SALE_PATH });
    const first = await shop.pay(orderId);
    expect(first.json).toMatchObject({ status: 'pending' });
    const again = await shop.pay(orderId);
    expect(again.json).toMatchObject({ status: 'succeeded', alreadyPaid: true, transactionRequestId: first.json.transactionRequestId });
    expect(shop.charges(orderId)).toBe(1);
  });

  it('a payment the service declined meanwhile (F) lets a new attempt go out', async () => {
    const shop = await app();
    // 8888 is declined by the sandbox: the first attempt ends F while its answer is held past the time-out.
    const orderId = shop.order({ amount: { orderAmount: 8888, priceCurrency: 'USD' } });
    shop.sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: HELD_ANSWER_MS });
    const first = await shop.pay(orderId);
    expect(first.json).toMatchObject({ status: 'pending' });
    const second = await shop.pay(orderId);
    expect(second.json).toMatchObject({ status: 'failed' });
    expect(second.json.transactionRequestId).not.toBe(first.json.transactionRequestId);
    const attempts = shop.sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);
    expect(attempts.map((charge) => charge.transactionStatus)).toEqual(['F', 'F']);
  });

  it('a payment the service never received goes out again under its own transactionRequestId', async () => {
    const shop = await app({ options: (sandbox) => ({ client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 } } }) });
    // Neither fault is processed. A 500 without an envelope might have been (answered pending); a refusal (S04) is
    // answered 429, and the attempt is still asked about before the next one: a refusal can follow a processed try.
    for (const [kind, answered] of [['http-500', 200], ['s04', 429]] as const) {
      const orderId = shop.order();
      shop.sandbox.injectFault({ kind, path: SALE_PATH });
      const first = await shop.pay(orderId);
      expect(first.status).toBe(answered);
      const again = await shop.pay(orderId);
      expect(again.json).toMatchObject({ status: 'succeeded' });
      const attempts = shop.sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);
      expect(attempts.map((charge) => charge.transactionRequestId)).toEqual([again.json.transactionRequestId]);
      if (kind === 'http-500') expect(again.json.transactionRequestId).toBe(first.json.transactionRequestId);
    }
  });
});

describe('an open hosted session and a wallet payment', () => {
  it('a session paid on its page while its webhook is still being handled: the wallet payment is answered paid, nothing charged', async () => {
    const { setup, reached, held } = holdSucceededEvents();
    const shop = await app(setup);
    const orderId = shop.order();
    const { checkoutUrl } = (await shop.checkout(orderId)).json as { checkoutUrl: string };
    expect(await payHostedPage(checkoutUrl)).toBeLessThan(400);
    await reached.opened;
    const paid = await shop.pay(orderId);
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ status: 'succeeded', alreadyPaid: true, transactionId: expect.any(String) });
    held.open();
    await shop.sandbox.waitForDeliveries();
    expect(shop.charges(orderId)).toBe(1);
    expect(paymentEvents(shop.events, orderId)).toEqual(['payment.succeeded']);
  });

  it("the expired session's payment.closed names its attempt and leaves the paid order paid", async () => {
    const shop = await app();
    const orderId = shop.order();
    const hosted = await shop.checkout(orderId);
    const paid = await shop.pay(orderId);
    await shop.sandbox.waitForDeliveries();
    const closed = shop.events.find((event) => event.type === 'payment.closed' && event.referenceOrderId === orderId);
    expect(closed).toMatchObject({ sessionId: hosted.json.sessionId });
    expect(closed?.transactionRequestId).not.toBe(paid.json.transactionRequestId);
    expect((await shop.status(orderId)).json).toMatchObject({ status: 'succeeded', transactionId: paid.json.transactionId });
  });

  it('a checkout after its session expired gets a new session; the old one is ended first', async () => {
    const shop = await app();
    const orderId = shop.order();
    const first = (await shop.checkout(orderId)).json as { checkoutUrl: string };
    shop.sandbox.clock.advance(31 * 60_000);
    const second = (await shop.checkout(orderId)).json as { checkoutUrl: string };
    expect(second.checkoutUrl).not.toBe(first.checkoutUrl);
    expect(await payHostedPage(first.checkoutUrl)).toBe(410);
    expect(await payHostedPage(second.checkoutUrl)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
  });

  it('a checkout whose answer was lost is asked for again under the same transactionRequestId and gets that session', async () => {
    const shop = await app();
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'reset-after', path: CHECKOUT_PATH });
    expect((await shop.checkout(orderId)).status).toBe(502);
    const again = await shop.checkout(orderId);
    expect(again.status).toBe(201);
    const sessionRequest = shop.logLines.filter((line) => line.includes('create-session') && line.includes('"attempt":1'));
    const requestIds = new Set(sessionRequest.map((line) => /"transactionRequestId":"([^"]+)"/.exec(line)?.[1]));
    expect(requestIds.size).toBe(1);
    expect(await payHostedPage(again.json.checkoutUrl as string)).toBeLessThan(400);
    expect(shop.charges(orderId)).toBe(1);
  });

  it('a wallet payment after a checkout whose answer was lost names that session again, ends it, then pays: charged once', async () => {
    const shop = await app();
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'reset-after', path: CHECKOUT_PATH });
    expect((await shop.checkout(orderId)).status).toBe(502);
    const paid = await shop.pay(orderId);
    expect(paid.json).toMatchObject({ status: 'succeeded' });
    await shop.sandbox.waitForDeliveries();
    const closed = shop.events.find((event) => event.type === 'payment.closed' && event.referenceOrderId === orderId);
    const sessionId = closed?.type === 'payment.closed' ? closed.sessionId : undefined;
    expect(sessionId).toEqual(expect.any(String));
    expect(await payHostedPage(`${shop.sandbox.url}/hosted/checkout/${sessionId}`)).toBe(410);
    expect(shop.charges(orderId)).toBe(1);
  });
});

describe('GET /status', () => {
  it('asks the service about a pending payment once the last check is 5 s old', async () => {
    const shop = await app();
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: HELD_ANSWER_MS });
    const pending = await shop.pay(orderId);
    expect(pending.json).toMatchObject({ status: 'pending' });
    expect((await shop.status(orderId)).json).toMatchObject({ status: 'pending' });
    shop.sandbox.clock.advance(5_000);
    const settled = await shop.status(orderId);
    expect(settled.json).toMatchObject({ status: 'succeeded', transactionId: expect.any(String) });
  });
});

describe('handlers.reconcile()', () => {
  const noWebhook = (): OrderAppSetup => ({ options: () => ({ notifyUrl: () => undefined }) });

  it('without notifyUrl: settles a pending payment and an unhandled success, each handler once; a second run finds nothing', async () => {
    const shop = await app(noWebhook());
    const paidNow = shop.order();
    const paidLater = shop.order();
    expect((await shop.pay(paidNow)).json).toMatchObject({ status: 'succeeded' });
    shop.sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: HELD_ANSWER_MS });
    expect((await shop.pay(paidLater)).json).toMatchObject({ status: 'pending' });
    expect(shop.sandbox.deliveries()).toEqual([]);
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 60_000 })).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
    shop.sandbox.clock.advance(60_000);
    expect(await shop.paymentRoutes.reconcile()).toEqual({ checked: 2, settled: 2, stillPending: 0, errors: 0 });
    expect(paymentEvents(shop.events, paidNow)).toEqual(['payment.succeeded']);
    expect(paymentEvents(shop.events, paidLater)).toEqual(['payment.succeeded']);
    expect(shop.events.find((event) => event.referenceOrderId === paidLater)).toMatchObject({
      deliveryId: expect.stringMatching(/^reconciliation:/),
      transactionId: expect.any(String),
      amount: { orderAmount: 1250, priceCurrency: 'USD' },
    });
    shop.sandbox.clock.advance(60_000);
    expect(await shop.paymentRoutes.reconcile()).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
  });

  it('without notifyUrl: a session paid on its page, and one abandoned until it expired', async () => {
    const shop = await app(noWebhook());
    const paid = shop.order();
    const abandoned = shop.order();
    const { checkoutUrl } = (await shop.checkout(paid)).json as { checkoutUrl: string };
    await shop.checkout(abandoned);
    expect(await payHostedPage(checkoutUrl)).toBeLessThan(400);
    shop.sandbox.clock.advance(60_000);
    expect(await shop.paymentRoutes.reconcile()).toEqual({ checked: 2, settled: 1, stillPending: 1, errors: 0 });
    shop.sandbox.clock.advance(30 * 60_000);
    expect(await shop.paymentRoutes.reconcile()).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 });
    expect(paymentEvents(shop.events, paid)).toEqual(['payment.succeeded']);
    expect(paymentEvents(shop.events, abandoned)).toEqual(['payment.closed']);
  });

  it('a webhook receiver failing every attempt: reconciliation runs the handler once, the dead deliveries never did', async () => {
    const shop = await app({
      beforeEvent: (event) => {
        if (!event.deliveryId.startsWith('reconciliation:')) throw new Error('the receiver is broken');
      },
    });
    const orderId = shop.order();
    await shop.pay(orderId);
    await shop.sandbox.waitForDeliveries();
    expect(shop.sandbox.deliveries()[0]?.state).toBe('failed');
    shop.sandbox.clock.advance(60_000);
    expect(await shop.paymentRoutes.reconcile()).toMatchObject({ settled: 1, errors: 0 });
    expect(paymentEvents(shop.events, orderId)).toEqual(['payment.succeeded']);
  });

  it('reconciliation first, then the webhook: the webhook is a duplicate, the handler ran once', async () => {
    let reconciled = false;
    const shop = await app({
      // The first delivery fails until reconciliation has run; its retry comes 300 ms later.
      webhookRetryDelaysMs: [300],
      beforeEvent: (event) => {
        if (!event.deliveryId.startsWith('reconciliation:') && !reconciled) throw new Error('the receiver is down for now');
      },
    });
    const orderId = shop.order();
    await shop.pay(orderId);
    // Reconciliation waits for the first delivery's handling to have ended: until the failed run has
    // released its claim (which can come after the sandbox records the 500), the event is in progress
    // and reconciliation rightly leaves it pending, so it is asked again until it settles.
    await vi.waitFor(() => expect(shop.sandbox.deliveries()[0]?.attempts.length).toBeGreaterThan(0), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 }), {
      timeout: 10_000,
      interval: 100,
    });
    reconciled = true;
    await shop.sandbox.waitForDeliveries();
    const delivery = shop.sandbox.deliveries()[0];
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.attempts.at(-1)?.status).toBe(200);
    expect(shop.events.filter((event) => event.referenceOrderId === orderId).map((event) => event.deliveryId)).toEqual([
      `reconciliation:${shop.events[0]?.transactionRequestId}`,
    ]);
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ checked: 0 });
  });

  it('a webhook handled while its outcome could not be recorded: reconciliation finds it a duplicate and records it', async () => {
    const failing = new Set<keyof OrderAttemptStore>();
    const shop = await app({ options: () => ({ orders: { store: failingStore(failing) } }) });
    const orderId = shop.order();
    // A new order's payment settles nothing; its webhook, which then fails to record its outcome, does.
    failing.add('settle');
    await shop.pay(orderId);
    await shop.sandbox.waitForDeliveries();
    expect(shop.sandbox.deliveries()[0]?.attempts.map((attempt) => attempt.status)).toEqual([200]);
    failing.clear();
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 });
    expect(paymentEvents(shop.events, orderId)).toEqual(['payment.succeeded']);
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ checked: 0 });
  });

  it('an event a webhook is handling right now is left to it: still pending for reconciliation, handled once', async () => {
    const held = gate();
    const reached = gate();
    const shop = await app({
      beforeEvent: async (event) => {
        if (event.deliveryId.startsWith('reconciliation:')) return;
        reached.open();
        await held.opened;
      },
    });
    const orderId = shop.order();
    await shop.pay(orderId);
    await reached.opened;
    // Service time stands still: the webhook's claim on the event (25 s) is live.
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 0, stillPending: 1, errors: 0 });
    held.open();
    await shop.sandbox.waitForDeliveries();
    expect(paymentEvents(shop.events, orderId)).toEqual(['payment.succeeded']);
    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ checked: 0 });
  });

  it('one run at a time: a tick during a run joins it, a run with other options starts once it has ended', async () => {
    const reached = gate();
    const held = gate();
    const shop = await app({
      ...noWebhook(),
      beforeEvent: async (event) => {
        if (!event.deliveryId.startsWith('reconciliation:')) return;
        reached.open();
        await held.opened;
      },
    });
    const orderId = shop.order();
    shop.sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: HELD_ANSWER_MS });
    expect((await shop.pay(orderId)).json).toMatchObject({ status: 'pending' });
    const first = shop.paymentRoutes.reconcile({ olderThanMs: 0 });
    await reached.opened;
    // Run on their own, these two would find the order locked by the first and answer it still pending.
    const tick = shop.paymentRoutes.reconcile({ olderThanMs: 0 });
    const other = shop.paymentRoutes.reconcile({ olderThanMs: 0, limit: 10 });
    held.open();
    const settledOnce = { checked: 1, settled: 1, stillPending: 0, errors: 0 };
    expect(await first).toEqual(settledOnce);
    expect(await tick).toEqual(settledOnce);
    expect(await other).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
    expect(shop.logLines.filter((line) => line.endsWith('reconciliation run'))).toHaveLength(2);
    expect(paymentEvents(shop.events, orderId)).toEqual(['payment.succeeded']);
  });

  it('refuses bad options, naming them', async () => {
    const shop = await app();
    await expect(shop.paymentRoutes.reconcile({ limit: 0 })).rejects.toMatchObject({
      issues: [{ path: 'limit', rule: 'min', message: 'must be greater than 0' }],
    });
  });
});

describe('the order attempt store', () => {
  it('unreachable: 503 STORE_UNAVAILABLE and nothing sent, whether it fails to lock or to record the attempt', async () => {
    const failing = new Set<keyof OrderAttemptStore>();
    const shop = await app({ options: () => ({ orders: { store: failingStore(failing) } }) });
    for (const operation of ['lock', 'get', 'put'] as const) {
      failing.clear();
      failing.add(operation);
      const orderId = shop.order();
      const answers = [await shop.pay(orderId), await shop.checkout(orderId)];
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.json).toEqual({
          error: { code: 'STORE_UNAVAILABLE', message: 'A store this route needs is unavailable; nothing was processed. Retry shortly.' },
        });
      }
      expect(shop.sandbox.charges().filter((charge) => charge.referenceOrderId === orderId)).toEqual([]);
    }
    failing.clear();
    failing.add('unsettled');
    await expect(shop.paymentRoutes.reconcile()).rejects.toThrow(PaymentStoreUnavailableError);
  });

  it('an outcome it cannot record after the charge is still answered, and the next request asks the service instead of charging', async () => {
    const failing = new Set<keyof OrderAttemptStore>();
    const store = failingStore(failing);
    const shop = await app({ options: () => ({ orders: { store } }) });
    const orderId = shop.order();
    let puts = 0;
    const put = store.put;
    store.put = async (...args) => {
      puts += 1;
      if (puts === 2) throw new Error('connection reset');
      return put(...args);
    };
    expect((await shop.pay(orderId)).json).toMatchObject({ status: 'succeeded' });
    expect((await shop.pay(orderId)).json).toMatchObject({ status: 'succeeded', alreadyPaid: true });
    expect(shop.charges(orderId)).toBe(1);
  });

  it("a lock left by a crashed instance frees after orders.lockTtlMs", async () => {
    const lockTtlMs = 600_000;
    // The store reads the sandbox's clock, which the test moves: the lock lapses when the test says, however slow the calls.
    const store = new MemoryOrderAttemptStore({ clock: { now: () => shop.sandbox.clock.now() } });
    const shop = await app({ options: () => ({ orders: { store, lockTtlMs } }) });
    const orderId = shop.order();
    expect(await store.lock(orderId, lockTtlMs)).toEqual(expect.any(String));
    const refused = await shop.pay(orderId);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
    // The clock also runs on in real time: 10 s short of the TTL, the lock still holds on the slowest machine.
    shop.sandbox.clock.advance(lockTtlMs - 10_000);
    expect((await shop.pay(orderId)).json).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
    shop.sandbox.clock.advance(10_000);
    expect((await shop.pay(orderId)).json).toMatchObject({ status: 'succeeded' });
  });
});
