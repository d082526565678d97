import { createPaymentClient, type Logger, type PaymentRoutes } from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackOffice } from '../src/back-office';
import type { Order } from '../src/orders';
import { readShopConfig } from '../src/config';
import { startShopServer, type RunningShop } from '../src/server';
import { MOUNT_PATH } from '../src/shop';
import { nodeApp } from './support/node-app';
import { pgliteDataDir, type PGliteDataDir } from '../../../tools/pglite-data-dir';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const CROSS_SITE = { 'sec-fetch-site': 'cross-site' };

const lines: string[] = [];
const record = (level: string) => (objOrMsg: object | string, msg?: string) =>
  void lines.push(`${level} ${msg ?? ''} ${typeof objOrMsg === 'string' ? objOrMsg : JSON.stringify(objOrMsg)}`);
const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };

let running: RunningShop;
let sandbox: Sandbox;
let office: BackOffice;
let paymentRoutes: PaymentRoutes;
let dataDir: PGliteDataDir;

/** A shop with the payment routes (node middleware) against its embedded sandbox, and its back office. */
beforeAll(async () => {
  dataDir = await pgliteDataDir();
  const options = { config: { ...readShopConfig({}), port: 0 }, logger, sandbox: { webhookRetryDelaysMs: [20, 40] }, dataDir: dataDir.dir };
  running = await startShopServer('Test shop', options, (shop) => {
    const app = nodeApp(shop);
    paymentRoutes = app.paymentRoutes;
    office = shop.backOffice(app.paymentRoutes);
    return app;
  });
  sandbox = running.sandbox!;
});
afterAll(async () => {
  await running?.close();
  dataDir?.remove();
});

/** The order as the shop's database holds it now. */
async function stored(orderId: string): Promise<Order> {
  const order = await running.shop.orders.get(orderId);
  if (!order) throw new Error(`order ${orderId} is not in the database`);
  return order;
}

const newOrder = () => running.shop.orders.create(running.shop.catalog[0]!);

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${running.url}${MOUNT_PATH}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** An order of `sku`, paid by wallet through the shop's routes and settled by its webhook. */
async function paidOrder(sku: string): Promise<string> {
  const order = await running.shop.orders.create(running.shop.catalog.find((product) => product.sku === sku)!);
  expect(await post('/wallet/pay', { orderId: order.id, token: sandbox.mintWalletToken() })).toMatchObject({ status: 'succeeded' });
  await sandbox.waitForDeliveries();
  expect((await stored(order.id)).status).toBe('paid');
  return order.id;
}

const refundsOf = (orderId: string) => sandbox.refunds().filter((refund) => refund.referenceOrderId === orderId);

describe('the back office: refunds', () => {
  it('a partial refund, then the rest in full: Partially refunded, then Refunded, as the refund webhooks say', async () => {
    const orderId = await paidOrder('notebook'); // 18.90
    const partial = await office.refund(orderId, { scope: 'partial', amount: '5.25' }, SAME_ORIGIN);
    expect(partial).toMatchObject({ status: 303, headers: { location: `/orders/${orderId}` } });
    await sandbox.waitForDeliveries();
    expect((await stored(orderId)).status).toBe('partially_refunded');
    const page = (await running.shop.orderPage(orderId)).body;
    expect(page).toContain('<dd id="refunded-amount">5.25 USD</dd>');
    expect(page).toContain('Refund 13.65 USD in full');

    expect((await office.refund(orderId, { scope: 'full' }, SAME_ORIGIN)).status).toBe(303);
    await sandbox.waitForDeliveries();
    const order = await stored(orderId);
    expect(order.status).toBe('refunded');
    expect(JSON.parse((await office.refunds(orderId)).body)).toEqual({ status: 'refunded', awaiting: 0 });

    const atService = refundsOf(orderId);
    expect(atService.map((refund) => [refund.amount.totalAmount, refund.transactionStatus])).toEqual([
      [525, 'S'],
      [1365, 'S'],
    ]);
    expect(new Set(atService.map((refund) => refund.originalTransactionId))).toEqual(new Set([order.paymentTransactionId]));
    expect(order.refunds).toEqual(
      atService.map((refund) => ({ requestId: refund.transactionRequestId, amount: refund.amount.totalAmount, state: 'succeeded', transactionId: refund.transactionId })),
    );
    expect((await running.shop.orderPage(orderId)).body).not.toContain('id="refund-full"');
  });

  it('a refund the service declines (88.88 in the sandbox) is shown failed; the order stays paid with all of it refundable', async () => {
    const orderId = await paidOrder('refund-declined'); // 100.00
    expect((await office.refund(orderId, { scope: 'partial', amount: '88.88' }, SAME_ORIGIN)).status).toBe(303);
    await sandbox.waitForDeliveries();
    const order = await stored(orderId);
    expect(order.status).toBe('paid');
    expect(order.refunds).toEqual([expect.objectContaining({ amount: 8888, state: 'failed', reason: expect.stringContaining('REFUND_DECLINED') })]);
    expect((await running.shop.orderPage(orderId)).body).toContain('Refund 100.00 USD in full');
  });

  it('an amount over what remains is refused on the page, and nothing is sent', async () => {
    const orderId = await paidOrder('mug'); // 12.50
    const refused = await office.refund(orderId, { scope: 'partial', amount: '12.51' }, SAME_ORIGIN);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('No refund sent: the amount must be at most 12.50 USD, what remains refundable.');
    expect(refused.body).toContain(`data-canonical="/orders/${orderId}"`);
    const decimal = await office.refund(orderId, { scope: 'partial', amount: '1.005' }, SAME_ORIGIN);
    expect(decimal.status).toBe(400);
    expect(refundsOf(orderId)).toEqual([]);
    expect((await stored(orderId)).refunds).toEqual([]);
  });

  it('a refund the service refuses (the payment was partly refunded elsewhere) is recorded failed with its reason', async () => {
    const orderId = await paidOrder('mug');
    const order = await stored(orderId);
    // Refunded from the service's own dashboard, with no webhook to the shop: the shop still thinks 12.50 remains.
    const outside = createPaymentClient(sandbox.clientOptions());
    await outside.refund({ originalTransactionId: order.paymentTransactionId!, amount: { priceCurrency: 'USD', orderAmount: 1000 } });
    await outside.close();

    expect((await office.refund(orderId, { scope: 'partial', amount: '12.50' }, SAME_ORIGIN)).status).toBe(303);
    expect((await stored(orderId)).refunds).toEqual([expect.objectContaining({ amount: 1250, state: 'failed', reason: expect.stringMatching(/^refused: /) })]);
    expect(lines.some((line) => line.startsWith('warn refund refused'))).toBe(true);
  });

  it('refuses an unpaid order, an unknown one, and a form posted from another site, sending nothing', async () => {
    const unpaid = await newOrder();
    const notPaid = await office.refund(unpaid.id, { scope: 'full' }, SAME_ORIGIN);
    expect(notPaid.status).toBe(409);
    expect(notPaid.body).toContain('Only a paid order can be refunded.');
    expect((await office.refund('ord_nobody', { scope: 'full' }, SAME_ORIGIN)).status).toBe(404);
    expect((await office.refunds('ord_nobody')).status).toBe(404);

    const orderId = await paidOrder('mug');
    expect((await office.refund(orderId, { scope: 'full' }, CROSS_SITE)).status).toBe(403);
    expect((await office.refund(orderId, { scope: 'full' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(refundsOf(orderId)).toEqual([]);
  });
});

describe('the back office: cancelling an abandoned checkout', () => {
  it('expires the open session (its page then answers 410); the order checks out again', async () => {
    const order = await newOrder();
    const first = await post('/checkout', { orderId: order.id });

    const cancelled = await office.cancelCheckout(order.id, SAME_ORIGIN);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain('The open checkout was cancelled');
    expect((await fetch(String(first['checkoutUrl']))).status).toBe(410);
    await sandbox.waitForDeliveries();
    expect((await stored(order.id)).status).toBe('pending');

    expect((await office.cancelCheckout(order.id, SAME_ORIGIN)).body).toContain('There was no open checkout to cancel.');
    const second = await post('/checkout', { orderId: order.id });
    expect(second['checkoutUrl']).not.toBe(first['checkoutUrl']);
  });

  it('a paid order is answered already paid; a cross-site post and an unknown order change nothing', async () => {
    const orderId = await paidOrder('mug');
    expect((await office.cancelCheckout(orderId, SAME_ORIGIN)).body).toContain('The order is already paid: refund it instead.');

    const order = await newOrder();
    const open = await post('/checkout', { orderId: order.id });
    expect((await office.cancelCheckout(order.id, CROSS_SITE)).status).toBe(403);
    expect((await fetch(String(open['checkoutUrl']))).status).toBe(200);
    expect((await office.cancelCheckout('ord_nobody', SAME_ORIGIN)).status).toBe(404);
    expect(await paymentRoutes.cancelCheckout(order.id)).toMatchObject({ outcome: 'cancelled' });
  });

  it('logged nothing secret along the way', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [sandbox.testApiKey, sandbox.webhookSecret]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
