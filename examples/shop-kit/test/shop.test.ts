import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, type PaymentEvent } from '@paymount/core';
import { readShopConfig } from '../src/config';
import { Shop } from '../src/shop';
import type { ShopDatabase } from '../src/shop-database';
import { testDatabase } from './support/test-database';

let database: ShopDatabase;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database?.close());

const API_KEY = 'sk_live_0123456789abcdefghij';

/** A shop configured for a real service: no sandbox, no network (the routes are not mounted here). */
function serviceShop(lines: string[] = []): Shop {
  const config = readShopConfig({
    PAYMENT_BASE_URL: 'https://pay.example.com',
    PAYMENT_API_KEY: API_KEY,
    PAYMENT_APP_ID: 'app_1',
    PAYMENT_MERCHANT_ID: 'mch_1',
    PAYMENT_WEBHOOK_SECRET: 'whsec_0123456789',
    PAYMENT_GATEWAY_ID: 'gateway',
    PUBLIC_URL: 'https://shop.example.com',
  });
  const record = (level: string) => (objOrMsg: object | string, msg?: string) =>
    void lines.push(`${level} ${msg ?? ''} ${typeof objOrMsg === 'string' ? objOrMsg : JSON.stringify(objOrMsg)}`);
  const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  return new Shop({ name: 'Test shop', config, publicUrl: 'https://shop.example.com', sandbox: undefined, logger, db: database.db });
}

async function placeOrder(shop: Shop, sku: string): Promise<string> {
  const answer = await shop.placeOrder(sku, { 'sec-fetch-site': 'same-origin' });
  expect(answer.status).toBe(303);
  return (answer.headers['location'] ?? '').replace('/orders/', '');
}

const BODY_OF: Record<Exclude<PaymentEvent['type'], 'unknown'>, Record<string, unknown>> = {
  'payment.succeeded': { transactionType: 'SALE', transactionStatus: 'S' },
  'payment.failed': { transactionType: 'SALE', transactionStatus: 'F', reason: { code: 'CARD_DECLINED', message: 'card declined' } },
  'payment.closed': { transactionType: 'SALE', transactionStatus: 'C', sessionId: 'cs_1', reason: { code: 'CANCELLED', message: 'cancelled' } },
  'refund.succeeded': { transactionType: 'REFUND', transactionStatus: 'S', originalTransactionId: 'txn_paid' },
  'refund.failed': { transactionType: 'REFUND', transactionStatus: 'F', originalTransactionId: 'txn_paid', transactionResultCode: 'REFUND_DECLINED', transactionResultMsg: 'refund declined' },
};

const SECRET = 'whsec_shop_kit_test_secret';

/** Hands `event` to the shop's handler as paymount does with the Postgres store: in the transaction that marks it handled. */
function deliver(shop: Shop, event: PaymentEvent): Promise<unknown> {
  return database.db.transaction((tx) => shop.onPaymentEvent(event, { context: undefined, db: tx }));
}

/** The event paymount makes of a signed webhook body of this kind (a payment of 12.50 USD unless `fields` say otherwise). */
async function event(type: keyof typeof BODY_OF, referenceOrderId: string | undefined, fields: Record<string, unknown> = {}): Promise<PaymentEvent> {
  const body = {
    transactionId: 't1',
    transactionRequestId: 'r1',
    amount: { orderAmount: 1250, priceCurrency: 'USD' },
    ...BODY_OF[type],
    ...(referenceOrderId ? { referenceOrderId } : {}),
    ...fields,
  };
  const { body: rawBody, headers } = signWebhook({ payload: body, secret: SECRET });
  return verifyWebhook({ rawBody, headers, secret: SECRET });
}

describe('Shop', () => {
  it('builds the route options from the configuration: notify and return URLs on the public URL, the real wallet library', async () => {
    const shop = serviceShop();
    expect(shop.payments.notifyUrl).toBe('https://shop.example.com/payments/webhook');
    const returnUrl = shop.payments.merchantReturnUrl as (order: { referenceOrderId: string }) => string;
    expect(returnUrl({ referenceOrderId: 'ord_1' })).toBe('https://shop.example.com/return?orderId=ord_1');
    expect(shop.payments.wallet).toEqual({ gatewayId: 'gateway', merchantName: 'Test shop' });
    // shop.js has @paymount/browser load it (the page's policy lets it run).
    const page = await shop.orderPage(await placeOrder(shop, 'mug'));
    expect(page.body).toContain('data-wallet="service" data-wallet-script="https://pay.google.com/gp/p/js/pay.js" data-wallet-environment="PRODUCTION"');
  });

  it('offers the sandbox outcome products only against the sandbox', async () => {
    const shop = serviceShop();
    expect(shop.catalog.map((product) => product.sku)).toEqual(['mug', 'notebook']);
    expect((await shop.placeOrder('declined', {})).status).toBe(400);
  });

  it('resolves orders with the server-side price, and a paid order as not payable', async () => {
    const shop = serviceShop();
    const orderId = await placeOrder(shop, 'notebook');
    const resolved = {
      referenceOrderId: orderId,
      amount: { orderAmount: 1890, priceCurrency: 'USD' },
      description: 'Test shop: Dot-grid notebook',
      productList: [{ name: 'Dot-grid notebook', amount: 1890, num: 1 }],
    };
    expect(await shop.resolveOrder(orderId)).toEqual({ ...resolved, payable: true });
    await deliver(shop, await event('payment.succeeded', orderId, { amount: { orderAmount: 1890, priceCurrency: 'USD' } }));
    expect(await shop.resolveOrder(orderId)).toEqual({ ...resolved, payable: false });
    expect(await shop.resolveOrder('ord_unknown')).toBeUndefined();
  });

  it('settles orders from payment events: failed, closed (still pending), then paid, which is final', async () => {
    const shop = serviceShop();
    const orderId = await placeOrder(shop, 'mug');
    await deliver(shop, await event('payment.failed', orderId));
    expect((await shop.orders.get(orderId))?.status).toBe('failed');
    await deliver(shop, await event('payment.closed', orderId));
    expect((await shop.orders.get(orderId))?.status).toBe('pending');
    await deliver(shop, await event('payment.succeeded', orderId, { transactionId: 'txn_paid' }));
    await deliver(shop, await event('payment.failed', orderId));
    // The session abandoned for a wallet payment expires later: its payment.closed names that session.
    await deliver(shop, await event('payment.closed', orderId, { transactionId: 'txn_session', sessionId: 'cs_abandoned' }));
    expect(await shop.orders.get(orderId)).toMatchObject({ status: 'paid', paymentTransactionId: 'txn_paid' });
  });

  it('settles refunds from refund events, found by the order or by the refunded payment; a refunded order is not payable', async () => {
    const shop = serviceShop();
    const orderId = await placeOrder(shop, 'mug'); // 12.50
    await deliver(shop, await event('payment.succeeded', orderId, { transactionId: 'txn_refunded' }));
    await shop.orders.requestRefund(orderId, 'refund_1', 500);
    await deliver(shop, 
      await event('refund.succeeded', orderId, { transactionId: 'txn_r1', transactionRequestId: 'refund_1', originalTransactionId: 'txn_refunded', amount: { totalAmount: 500, priceCurrency: 'USD' } }),
    );
    expect((await shop.orders.get(orderId))?.status).toBe('partially_refunded');

    await shop.orders.requestRefund(orderId, 'refund_2', 750);
    // A service that leaves referenceOrderId out of refund webhooks: the refunded payment names the order.
    await deliver(shop, 
      await event('refund.failed', undefined, {
        transactionId: 'txn_r2',
        transactionRequestId: 'refund_2',
        originalTransactionId: 'txn_refunded',
        transactionResultCode: 'REFUND_DECLINED',
        transactionResultMsg: 'Refund declined',
      }),
    );
    expect((await shop.orders.get(orderId))?.refunds[1]).toEqual({
      requestId: 'refund_2',
      amount: 750,
      state: 'failed',
      transactionId: 'txn_r2',
      reason: 'REFUND_DECLINED: Refund declined',
    });
    await deliver(shop, await event('refund.succeeded', orderId, { transactionRequestId: 'refund_3', amount: { totalAmount: 750 } }));
    expect((await shop.orders.get(orderId))?.status).toBe('refunded');
    expect(await shop.resolveOrder(orderId)).toMatchObject({ payable: false });
    await deliver(shop, await event('payment.closed', orderId));
    expect((await shop.orders.get(orderId))?.status).toBe('refunded');
  });

  it('refuses the shop’s forms posted from another site, and takes them from its own pages and from clients that are no browser', async () => {
    const lines: string[] = [];
    const shop = serviceShop(lines);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://shop.example.com' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      const answer = await shop.placeOrder('mug', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toContain('must be sent from the shop');
    }
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { origin: 'https://shop.example.com' }, {}]) {
      expect((await shop.placeOrder('mug', headers)).status, JSON.stringify(headers)).toBe(303);
    }
    expect(lines.filter((line) => line.includes('another site refused'))).toHaveLength(4);
  });

  it('does not mark an order paid for another amount, and ignores events for unknown orders', async () => {
    const lines: string[] = [];
    const shop = serviceShop(lines);
    const orderId = await placeOrder(shop, 'mug');
    await deliver(shop, await event('payment.succeeded', orderId, { amount: { orderAmount: 1, priceCurrency: 'USD' } }));
    expect((await shop.orders.get(orderId))?.status).toBe('pending');
    await deliver(shop, await event('payment.succeeded', 'ord_unknown'));
    expect(lines.some((line) => line.startsWith('error') && line.includes('another amount'))).toBe(true);
    expect(lines.some((line) => line.startsWith('warn') && line.includes('does not know'))).toBe(true);
  });

  it('redacts the API key from every line it logs', () => {
    const lines: string[] = [];
    const shop = serviceShop(lines);
    shop.logger.error({ detail: `failed with ${API_KEY}` }, `key ${API_KEY}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(API_KEY);
  });

  it('answers pages with escaping, security headers and 404s for unknown orders', async () => {
    const shop = serviceShop();
    const home = shop.home();
    expect(home.status).toBe(200);
    expect(home.headers['content-security-policy']).toBe(
      "script-src 'self' https://pay.google.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect((await shop.orderPage('<script>')).status).toBe(404);
    expect((await shop.returnPage(['x'])).status).toBe(404);
    expect(shop.asset('../src/shop.ts').status).toBe(404);
    expect(shop.asset('shop.js').headers['content-type']).toBe('text/javascript; charset=utf-8');
    const browserModule = shop.asset('paymount-browser.js');
    expect(browserModule.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(browserModule.body).toMatch(/\bas mountWalletButton\b/);
  });
});
