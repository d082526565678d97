import { randomUUID } from 'node:crypto';
import { MemoryIdempotencyStore, type PaymentEvent } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMerchantApp, type MerchantApp } from '../support/apps';
import { captureLogger } from '../support/capture';
import { createAgent, inPool, postJson } from '../support/http';
import { deliverTo, errorCodeOf, replayOf, serviceDelivery } from '../support/replay';
import { Shop, shopOptions, type ShopOrder } from '../support/shop';

/**
 * The security review's webhook findings, each reproduced over HTTP against an
 * Express app on the sandbox, with deliveries the sandbox signed (or signed
 * with its secret, as an attacker replaying a captured body effectively has).
 */

const HOUR = 60 * 60_000;
/** The memory store's bound, scaled down from its default 10,000 so a flood larger than it stays quick. */
const STORE_BOUND = 1_000;
const DUPLICATE = { received: true, duplicate: true };
const RECEIVED = { received: true };

const agent = createAgent(32);
let sandbox: Sandbox;
let app: MerchantApp;
let shop: Shop;
let store: MemoryIdempotencyStore;
const log = captureLogger();
/** referenceOrderIds whose handler fails on its first run, as a merchant's database outage would. */
const failFirstRun = new Set<string>();

beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [1_000, 1_000, 1_000] });
  shop = new Shop();
  store = new MemoryIdempotencyStore({ maxEntries: STORE_BOUND, clock: sandbox.clock });
  let routesUrl = '';
  app = await startMerchantApp('express', {
    ...shopOptions({
      sandbox,
      shop,
      logger: log.logger,
      routesUrl: () => routesUrl,
      handler: (event, apply) => {
        const ref = event.referenceOrderId ?? '';
        if (failFirstRun.delete(ref)) throw new Error('the order database is unavailable');
        apply();
      },
    }),
    store,
  });
  routesUrl = app.routesUrl;
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
  await agent.close();
});

/** Pays an order through the routes and returns the sandbox's webhook delivery for it, once settled. */
async function payAndDeliver(order: ShopOrder): Promise<Delivery> {
  const paid = await postJson(agent, `${app.routesUrl}/wallet/pay`, { orderId: order.id, token: sandbox.mintWalletToken() });
  expect(paid.status).toBe(200);
  await sandbox.waitForDeliveries(15_000);
  const delivery = sandbox.deliveries().find((d) => d.payload.referenceOrderId === order.referenceOrderId);
  expect(delivery?.state).toBe('delivered');
  return delivery!;
}

const runsOf = (match: (event: PaymentEvent) => boolean) => shop.handlerRuns.filter(match).length;
const runsFor = (delivery: Delivery) => runsOf((event) => event.transactionId === delivery.payload.transactionId);

describe('finding 1: a captured delivery replayed with fresh headers', () => {
  it('after the window (25 h later) is refused 400 WEBHOOK_STALE_EVENT and logged, under any delivery id; its handler ran once', async () => {
    const delivery = await payAndDeliver(shop.addOrder('late-replay', 1200));
    expect(runsFor(delivery)).toBe(1);
    sandbox.clock.advance(25 * HOUR);
    try {
      for (const deliveryId of [randomUUID(), delivery.deliveryId]) {
        const answer = await deliverTo(agent, app.routesUrl, replayOf(sandbox, delivery, { deliveryId }));
        expect(answer.status).toBe(400);
        expect(errorCodeOf(answer)).toBe('WEBHOOK_STALE_EVENT');
      }
    } finally {
      sandbox.clock.reset();
    }
    expect(runsFor(delivery)).toBe(1);
    const refusals = log.entries.filter((entry) => entry.msg === 'paymount route refused a request' && entry.fields.code === 'WEBHOOK_STALE_EVENT');
    expect(refusals).toHaveLength(2);
    expect(refusals[0]?.fields.status).toBe(400);
  });

  it(`${STORE_BOUND * 1.2} times under new delivery ids within the window, more than the store holds: all duplicates, no growth, no second run`, async () => {
    const delivery = await payAndDeliver(shop.addOrder('bulk-replay', 1300));
    const sizeBefore = store.size;
    const answers = await inPool(
      Array.from({ length: STORE_BOUND * 1.2 }, () => replayOf(sandbox, delivery)),
      32,
      (replay) => deliverTo(agent, app.routesUrl, replay),
    );
    expect(answers.filter((answer) => JSON.stringify(answer.json) !== JSON.stringify(DUPLICATE))).toEqual([]);
    expect(store.size - sizeBefore).toBe(0);
    // The event's key is still there: one more replay, under its own delivery id, is still a duplicate.
    expect((await deliverTo(agent, app.routesUrl, replayOf(sandbox, delivery, { deliveryId: delivery.deliveryId }))).json).toEqual(DUPLICATE);
    expect(runsFor(delivery)).toBe(1);
  });
});

describe("finding 2: E1's body replayed under the delivery id of E2, which awaits its retry", () => {
  it("does not make E2's retry a duplicate: E2's handler still runs, once", async () => {
    const e1 = await payAndDeliver(shop.addOrder('e1-replayed', 1400));
    const e2Order = shop.addOrder('e2-retried', 1500);
    failFirstRun.add(e2Order.referenceOrderId);
    const paid = await postJson(agent, `${app.routesUrl}/wallet/pay`, { orderId: e2Order.id, token: sandbox.mintWalletToken() });
    expect(paid.status).toBe(200);
    // E2's first delivery failed (500); the sandbox retries it 1 s later.
    const e2 = await vi.waitFor(
      () => {
        const found = sandbox.deliveries().find((d) => d.payload.referenceOrderId === e2Order.referenceOrderId);
        expect(found?.attempts[0]?.status).toBe(500);
        return found!;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(e2.state).toBe('pending');
    const replay = await deliverTo(agent, app.routesUrl, replayOf(sandbox, e1, { deliveryId: e2.deliveryId }));
    expect(replay.json).toEqual(DUPLICATE);

    await sandbox.waitForDeliveries(15_000);
    const settled = sandbox.deliveries().find((d) => d.deliveryId === e2.deliveryId);
    expect(settled?.state).toBe('delivered');
    expect(e2Order.state).toBe('paid');
    expect(shop.effects.get(`payment.succeeded:${e2.payload.transactionId}`)).toBe(1);
    expect(shop.effects.get(`payment.succeeded:${e1.payload.transactionId}`)).toBe(1);
  });
});

describe('finding 3: every event kind has its own identity', () => {
  const base = (order: ShopOrder) => ({
    referenceOrderId: order.referenceOrderId,
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    amount: { orderAmount: 300, taxAmount: 0, surchargeAmount: 0, priceCurrency: 'USD' },
  });

  it('a sale and refunds of it (own or shared transactionId, with and without transactionType), failed then succeeded: each handled once', async () => {
    const order = shop.addOrder('kinds', 3000);
    const sale = { ...base(order), transactionId: 'T-kinds', transactionRequestId: 'R-kinds', transactionType: 'SALE' };
    const refund = (transactionId: string, transactionRequestId: string, typed: boolean) => ({
      ...base(order),
      transactionId,
      transactionRequestId,
      originalTransactionId: 'T-kinds',
      transactionStatus: 'S',
      ...(typed ? { transactionType: 'REFUND' } : {}),
    });
    const events: Array<[string, Record<string, unknown>]> = [
      ['payment failed', { ...sale, transactionStatus: 'F', reason: { code: 'CARD_DECLINED', message: 'card declined' } }],
      ['payment succeeded, same transaction', { ...sale, transactionStatus: 'S' }],
      ['refund with its own transactionId', refund('T-kinds-rf1', 'R-kinds-rf1', true)],
      ['partial refund answered with the sale\'s transactionId', refund('T-kinds', 'R-kinds-rf2', true)],
      ['second partial refund, same transactionId', refund('T-kinds', 'R-kinds-rf3', true)],
      ['refund without transactionType, sale\'s transactionId', refund('T-kinds', 'R-kinds-rf4', false)],
    ];
    for (const [name, payload] of events) {
      expect((await deliverTo(agent, app.routesUrl, serviceDelivery(sandbox, payload))).json, name).toEqual(RECEIVED);
    }
    // Each again, under new delivery ids and with a new notifyTime, as a redelivery of the service: nothing runs.
    for (const [name, payload] of events) {
      expect((await deliverTo(agent, app.routesUrl, serviceDelivery(sandbox, payload))).json, name).toEqual(DUPLICATE);
    }
    const runs = shop.handlerRuns.filter((event) => event.referenceOrderId === order.referenceOrderId);
    expect(runs.map((event) => `${event.transactionRequestId}:${event.transactionStatus}`)).toEqual([
      'R-kinds:F',
      'R-kinds:S',
      'R-kinds-rf1:S',
      'R-kinds-rf2:S',
      'R-kinds-rf3:S',
      'R-kinds-rf4:S',
    ]);
  });

  it('letter case is one rule: `s` and `S`, `sale` and `SALE` are the same event, run once', async () => {
    const order = shop.addOrder('case', 3100);
    const payload = { ...base(order), transactionId: 'T-case', transactionRequestId: 'R-case' };
    const answers = [];
    for (const [transactionType, transactionStatus] of [['SALE', 'S'], ['sale', 's'], ['Sale', 'S']]) {
      answers.push((await deliverTo(agent, app.routesUrl, serviceDelivery(sandbox, { ...payload, transactionType, transactionStatus }))).json);
    }
    expect(answers).toEqual([RECEIVED, DUPLICATE, DUPLICATE]);
    const runs = shop.handlerRuns.filter((event) => event.transactionId === 'T-case');
    expect(runs.map((event) => event.type)).toEqual(['payment.succeeded']);
  });
});
