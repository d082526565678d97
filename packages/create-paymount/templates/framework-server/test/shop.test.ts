import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonThenPayAnew } from './abandoned-checkout.js';
import { startShop, TEST_WITHIN_MS, type RunningShop } from './running-shop.js';
import { Shopper } from './shopper.js';

// Its orders in a folder of its own, so a test run leaves ./data as it was.
const dataDir = mkdtempSync(join(tmpdir(), 'shop-test-'));
let shop: RunningShop;
beforeAll(async () => {
  shop = await startShop({ DATA_DIR: dataDir });
}, 600_000);
afterAll(async () => {
  await shop?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the shop, served as npm start serves it, on the embedded sandbox', { timeout: TEST_WITHIN_MS }, () => {
  it('takes a hosted checkout: the webhook marks the order paid, with the amount of the server', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('mug');
    expect(await shopper.status(orderId)).toBe('pending');
    const checkoutUrl = await shopper.checkout(orderId);
    expect(checkoutUrl.origin).toBe(shop.sandboxUrl);
    expect(await shopper.pay(checkoutUrl)).toMatch(new RegExp(`^${shop.url}/orders/${orderId}\\?`));
    expect(await shopper.status(orderId)).toBe('paid');
    expect(await shopper.charges(orderId)).toEqual([
      expect.objectContaining({ transactionStatus: 'S', amount: expect.objectContaining({ orderAmount: 1250, priceCurrency: 'USD' }) }),
    ]);
    // Paid is final: paymount refuses another checkout of it and sends nothing.
    const again = await fetch(`${shop.url}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) });
    expect(again.status).toBe(409);
  });

  it('keeps a declined order payable: paid on the retry', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('tee');
    await shopper.pay(await shopper.checkout(orderId), 'additional-3ds');
    expect(await shopper.status(orderId)).toBe('failed');
    await shopper.pay(await shopper.checkout(orderId));
    expect(await shopper.status(orderId)).toBe('paid');
    expect((await shopper.charges(orderId)).map((charge) => charge.transactionStatus)).toEqual(['F', 'S']);
  });

  it('a replayed webhook changes nothing: the refunded order stays refunded', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('mug');
    await shopper.pay(await shopper.checkout(orderId));
    const [payment] = await shopper.charges(orderId);
    const refundsOfIt = async () =>
      (await shopper.deliveries()).filter((delivery) => delivery.event === 'refund.succeeded' && delivery.payload['originalTransactionId'] === payment!.transactionId);

    // Refunds are behind the staff login: the form is staff's only, and posted without it, nothing is sent.
    expect(await shopper.refundAction(orderId)).toBeUndefined();
    const staff = new Shopper(shop);
    await staff.signIn('staff');
    const refund = (await staff.refundAction(orderId))!;
    expect((await shopper.refund(refund)).headers.get('location')).toBe(`/login?next=/orders/${orderId}`);
    expect(await refundsOfIt()).toEqual([]);
    expect((await staff.refund(refund)).status).toBe(303);
    expect(await shopper.status(orderId)).toBe('refunded');

    const paid = (await shopper.deliveries()).find((delivery) => delivery.event === 'payment.succeeded' && delivery.payload['referenceOrderId'] === orderId)!;
    expect(await shopper.resend(paid.deliveryId)).toMatchObject({ state: 'delivered', attempts: [expect.objectContaining({ status: 200 })] });
    expect(await shopper.status(orderId)).toBe('refunded');
    expect(await refundsOfIt()).toHaveLength(1);
  });

  it('keeps an abandoned order payable: its checkout expires unpaid, and a new one pays it', async () => {
    const shopper = new Shopper(shop);
    const orderId = await abandonThenPayAnew(shopper, () => shopper.settled());
    const closed = (await shopper.deliveries()).filter((delivery) => delivery.event === 'payment.closed' && delivery.payload['referenceOrderId'] === orderId);
    expect(closed).toEqual([expect.objectContaining({ state: 'delivered' })]);
    expect((await shopper.charges(orderId)).map((charge) => charge.transactionStatus)).toEqual(['S']);
  });
});
