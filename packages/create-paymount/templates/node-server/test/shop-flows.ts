import type { Sandbox } from '@paymount/sandbox';
import { expect, it } from 'vitest';
import { abandonThenPayAnew } from './abandoned-checkout.js';
import { Shopper } from './shopper.js';

/**
 * What every shop's `npm test` proves, over real HTTP on its running shop and sandbox: the test files
 * start the shop their own way (a Node server, `wrangler dev`) and call this inside their describe.
 */
export function shopFlows(running: () => { url: string; sandbox: Sandbox }): void {
  const sandbox = () => running().sandbox;
  it('takes a hosted checkout: the webhook marks the order paid, with the amount of the server', async () => {
    const shopper = new Shopper(running());
    const orderId = await shopper.buy('mug');
    expect(await shopper.status(orderId)).toBe('pending');
    const checkoutUrl = await shopper.checkout(orderId);
    expect(checkoutUrl.origin).toBe(sandbox().url);
    expect(await shopper.pay(checkoutUrl)).toMatch(new RegExp(`^${running().url}/orders/${orderId}\\?`));
    expect(await shopper.status(orderId)).toBe('paid');
    expect(sandbox().charges().filter((charge) => charge.referenceOrderId === orderId)).toEqual([
      expect.objectContaining({ transactionStatus: 'S', amount: expect.objectContaining({ orderAmount: 1250, priceCurrency: 'USD' }) }),
    ]);
    // Paid is final: paymount refuses another checkout of it and sends nothing.
    const again = await fetch(`${running().url}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) });
    expect(again.status).toBe(409);
  });

  it('keeps a declined order payable: paid on the retry', async () => {
    const shopper = new Shopper(running());
    const orderId = await shopper.buy('tee');
    await shopper.pay(await shopper.checkout(orderId), 'additional-3ds');
    expect(await shopper.status(orderId)).toBe('failed');
    await shopper.pay(await shopper.checkout(orderId));
    expect(await shopper.status(orderId)).toBe('paid');
    const charges = sandbox().charges().filter((charge) => charge.referenceOrderId === orderId);
    expect(charges.map((charge) => charge.transactionStatus)).toEqual(['F', 'S']);
  });

  it('keeps an abandoned order payable: its checkout expires unpaid, and a new one pays it', async () => {
    const orderId = await abandonThenPayAnew(new Shopper(running()), () => sandbox().waitForDeliveries());
    const closed = sandbox().deliveries().filter((delivery) => delivery.event === 'payment.closed' && delivery.payload['referenceOrderId'] === orderId);
    expect(closed).toEqual([expect.objectContaining({ state: 'delivered' })]);
    expect(sandbox().charges().filter((charge) => charge.referenceOrderId === orderId).map((charge) => charge.transactionStatus)).toEqual(['S']);
  });

  it('a replayed webhook changes nothing: the refunded order stays refunded', async () => {
    const shopper = new Shopper(running());
    const orderId = await shopper.buy('mug');
    await shopper.pay(await shopper.checkout(orderId));
    // Refunds are behind the staff login: without it, nothing is sent.
    expect((await shopper.refund(orderId)).headers.get('location')).toBe(`/login?next=/orders/${orderId}`);
    expect(sandbox().refunds()).toEqual([]);
    await shopper.signIn('staff');
    expect((await shopper.refund(orderId)).status).toBe(303);
    expect(await shopper.status(orderId)).toBe('refunded');

    const paid = sandbox().deliveries().find((delivery) => delivery.event === 'payment.succeeded' && delivery.payload['referenceOrderId'] === orderId)!;
    const replay = await sandbox().resend(paid.deliveryId);
    await sandbox().waitForDeliveries();
    expect(sandbox().deliveries().find((delivery) => delivery.deliveryId === replay.deliveryId)).toMatchObject({ state: 'delivered', attempts: [expect.objectContaining({ status: 200 })] });
    expect(await shopper.status(orderId)).toBe('refunded');
    expect(sandbox().refunds()).toHaveLength(1);
  });
}
