import { describe, expect, it } from 'vitest';
import type { PaymentEventReason } from '../src/webhooks/event';
import { orderAppsClosedAfterEach, payHostedPage } from './support/order-app';

const app = orderAppsClosedAfterEach();

describe('typed events from the sandbox', () => {
  it('every kind of event the service sends arrives with the fields its type promises', async () => {
    const shop = await app();
    const reasons: PaymentEventReason[] = [];
    const refundsOf: string[] = [];
    shop.handlers.on('payment.failed', (event) => void reasons.push(event.reason));
    shop.handlers.on('refund.succeeded', (event) => void refundsOf.push(event.originalTransactionId));

    const paidByWallet = shop.order({ amount: { orderAmount: 10_000, priceCurrency: 'USD' } });
    const paid = await shop.pay(paidByWallet);
    const declined = shop.order({ amount: { orderAmount: 8888, priceCurrency: 'USD' } });
    await shop.pay(declined);
    const paidOnPage = shop.order();
    await payHostedPage(String((await shop.checkout(paidOnPage)).json['checkoutUrl']));
    const abandoned = shop.order();
    await shop.checkout(abandoned);
    await shop.handlers.cancelCheckout(abandoned);
    const refund = (orderAmount: number) =>
      shop.handlers.client.refund({
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
    expect(await shop.handlers.reconcile()).toMatchObject({ settled: 1, errors: 0 });
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

  it('a refund delivery without referenceOrderId (a terminal sale refunded) is refused 400, logged with the field, and runs no handler', async () => {
    const shop = await app();
    const sale = await shop.handlers.client.terminalSale({ amount: 1500, priceCurrency: 'USD' });
    await shop.handlers.client.refund({ originalTransactionRequestId: sale.transactionRequestId, notifyUrl: `${shop.routesUrl}/webhook` });
    await shop.sandbox.waitForDeliveries();

    const [delivery] = shop.sandbox.deliveries();
    expect(delivery?.payload).toMatchObject({ transactionType: 'REFUND', transactionStatus: 'S' });
    expect(delivery?.payload).not.toHaveProperty('referenceOrderId');
    expect(delivery?.state).toBe('failed');
    expect(new Set(delivery?.attempts.map((attempt) => attempt.status))).toEqual(new Set([400]));
    expect(shop.events).toEqual([]);
    const refusals = shop.logLines.filter((line) => line.includes('WEBHOOK_INVALID_PAYLOAD'));
    expect(refusals).toHaveLength(delivery?.attempts.length ?? -1);
    expect(refusals[0]).toContain('not a complete refund.succeeded event (referenceOrderId is required)');
  });
});
