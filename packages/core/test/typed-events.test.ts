import { describe, expect, it } from 'vitest';
import type { PaymentEventReason } from '../src/index';
import { signWebhook } from '../src/index';
import { orderAppsClosedAfterEach, payHostedPage } from './support/order-app';

const app = orderAppsClosedAfterEach();

describe('typed events from the sandbox', () => {
  it('every kind of event the service sends arrives with the fields its type promises', async () => {
    const shop = await app();
    const reasons: PaymentEventReason[] = [];
    const refundsOf: string[] = [];
    shop.paymentRoutes.on('payment.failed', (event) => void reasons.push(event.reason));
    shop.paymentRoutes.on('refund.succeeded', (event) => void refundsOf.push(event.originalTransactionId));

    const paidByWallet = shop.order({ amount: { orderAmount: 10_000, priceCurrency: 'USD' } });
    const paid = await shop.pay(paidByWallet);
    const declined = shop.order({ amount: { orderAmount: 8888, priceCurrency: 'USD' } });
    await shop.pay(declined);
    const paidOnPage = shop.order();
    await payHostedPage(String((await shop.checkout(paidOnPage)).json['checkoutUrl']));
    const abandoned = shop.order();
    await shop.checkout(abandoned);
    await shop.paymentRoutes.cancelCheckout(abandoned);
    const refund = (orderAmount: number) =>
      shop.paymentRoutes.client.refund({
        originalTransactionRequestId: String(paid.json['transactionRequestId']),
        amount: { priceCurrency: 'USD', orderAmount },
        notifyUrl: `${shop.routesUrl}/webhook`,
      });
    await refund(500);
    // 8888 is the sandbox's declined refund.
    await refund(8888);
    await shop.sandbox.waitForDeliveries();

    const byOrder = (referenceOrderId: string) => shop.events.filter((event) => event.referenceOrderId === referenceOrderId);
    const ids = { transactionId: expect.any(String), transactionRequestId: expect.any(String), amount: expect.any(Object) };
    const [succeeded, refunded, refundFailed] = byOrder(paidByWallet);
    expect(succeeded).toMatchObject({ type: 'payment.succeeded', ...ids });
    expect(succeeded).not.toHaveProperty('sessionId');
    expect(refunded).toMatchObject({ type: 'refund.succeeded', ...ids, originalTransactionId: succeeded?.transactionId });
    expect(refundFailed).toMatchObject({
      type: 'refund.failed',
      originalTransactionId: succeeded?.transactionId,
      reason: { code: 'REFUND_DECLINED', message: 'refund declined' },
    });
    expect(byOrder(declined)).toMatchObject([{ type: 'payment.failed', ...ids, reason: { code: 'CARD_DECLINED', message: 'card declined' } }]);
    expect(byOrder(paidOnPage)).toMatchObject([{ type: 'payment.succeeded', ...ids, sessionId: expect.stringMatching(/^cs_/) }]);
    expect(byOrder(abandoned)).toMatchObject([
      { type: 'payment.closed', ...ids, sessionId: expect.stringMatching(/^cs_/), reason: { code: 'SESSION_EXPIRED', message: expect.any(String) } },
    ]);
    expect(reasons).toEqual([{ code: 'CARD_DECLINED', message: 'card declined' }]);
    expect(refundsOf).toEqual([succeeded?.transactionId]);
  });

  it('reconciliation names the closed session, which the query does not, and reads its reason from the result code', async () => {
    const shop = await app({ options: () => ({ notifyUrl: () => undefined }) });
    const abandoned = shop.order();
    await shop.checkout(abandoned);
    shop.sandbox.clock.advance(31 * 60_000);
    expect(await shop.paymentRoutes.reconcile()).toMatchObject({ settled: 1, errors: 0 });
    expect(shop.events).toMatchObject([
      {
        type: 'payment.closed',
        deliveryId: expect.stringMatching(/^reconciliation:/),
        referenceOrderId: abandoned,
        sessionId: expect.stringMatching(/^cs_/),
        reason: { code: 'SESSION_EXPIRED', message: 'checkout session expired unpaid' },
      },
    ]);
    expect(shop.events[0]?.payload).not.toHaveProperty('sessionId');
  });

  it('a refund of a terminal sale, which has no referenceOrderId, reaches the refund handlers without one', async () => {
    const shop = await app();
    const sale = await shop.paymentRoutes.client.terminalSale({ amount: 1500, priceCurrency: 'USD' });
    const refund = await shop.paymentRoutes.client.refund({ originalTransactionRequestId: sale.transactionRequestId, notifyUrl: `${shop.routesUrl}/webhook` });
    await shop.sandbox.waitForDeliveries();

    const [delivery] = shop.sandbox.deliveries();
    expect(delivery?.payload).not.toHaveProperty('referenceOrderId');
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200]);
    expect(shop.events).toMatchObject([{ type: 'refund.succeeded', transactionRequestId: refund.transactionRequestId, originalTransactionId: expect.any(String) }]);
    expect(shop.events[0]).not.toHaveProperty('referenceOrderId');
  });

  it('a signed delivery lacking a field its event always has is refused 400, logged naming the field, and runs no handler', async () => {
    const shop = await app();
    const orderId = shop.order();
    await shop.pay(orderId);
    await shop.sandbox.waitForDeliveries();
    const [genuine] = shop.sandbox.deliveries();
    const { referenceOrderId: _dropped, ...incomplete } = genuine?.payload ?? {};
    const { body, headers } = signWebhook({ payload: incomplete, secret: shop.sandbox.webhookSecret });
    const answer = await fetch(`${shop.routesUrl}/webhook`, { method: 'POST', headers, body });

    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: {
        code: 'WEBHOOK_INVALID_PAYLOAD',
        message: 'The webhook payload is not a complete payment.succeeded event (referenceOrderId is required); no handler ran.',
      },
    });
    expect(shop.events.map((event) => event.deliveryId)).toEqual([genuine?.deliveryId]);
    expect(shop.logLines.filter((line) => line.includes('WEBHOOK_INVALID_PAYLOAD') && line.includes('referenceOrderId is required'))).toHaveLength(1);
  });
});
