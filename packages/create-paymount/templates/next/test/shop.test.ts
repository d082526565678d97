import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop, STARTED_WITHIN_MS, type RunningShop } from './next-shop';
import { Shopper, SETTLED_WITHIN_MS } from './shopper';

let shop: RunningShop;
beforeAll(async () => {
  shop = await startShop();
}, STARTED_WITHIN_MS);
afterAll(() => shop?.close());

// Limits for a hang, never a verdict: next dev compiles each page and route on its first request.
describe('the shop under next dev, on the embedded sandbox', { timeout: 2 * SETTLED_WITHIN_MS }, () => {
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
    // Refunds are behind the staff login: without it, nothing is sent.
    expect((await shopper.refund(orderId)).headers.get('location')).toBe(`/login?next=/orders/${orderId}`);
    expect(await shopper.refunds(orderId)).toEqual([]);
    await shopper.signIn('staff');
    expect((await shopper.refund(orderId)).status).toBe(303);
    expect(await shopper.status(orderId)).toBe('refunded');

    const paid = (await shopper.deliveries()).find((delivery) => delivery.event === 'payment.succeeded' && delivery.payload['referenceOrderId'] === orderId)!;
    const replay = await shopper.resend(paid.deliveryId);
    await shopper.deliveriesSettled();
    expect((await shopper.deliveries()).find((delivery) => delivery.deliveryId === replay.deliveryId)).toMatchObject({ state: 'delivered', attempts: [expect.objectContaining({ status: 200 })] });
    expect(await shopper.status(orderId)).toBe('refunded');
    expect(await shopper.refunds(orderId)).toHaveLength(1);
  });
});
