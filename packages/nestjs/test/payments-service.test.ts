import { Inject, Injectable, Module } from '@nestjs/common';
import type { RefundFailedEvent, RefundSucceededEvent } from '@paymount/core';
import { PaymentNotFoundError } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
import { OnPaymentEvent, PaymentsModule, PaymentsService } from '../src';
import { startNestApp, type NestTestApp } from './support';

/** A merchant's back office: it refunds, looks up and cancels through the injected PaymentsService. */
@Injectable()
class BackOffice {
  constructor(@Inject(PaymentsService) readonly payments: PaymentsService) {}
}

@Injectable()
class RefundNotifications {
  readonly refunds: Array<RefundSucceededEvent | RefundFailedEvent> = [];

  @OnPaymentEvent('refund.succeeded', 'refund.failed')
  record(event: RefundSucceededEvent | RefundFailedEvent): void {
    this.refunds.push(event);
  }
}

let fixture: AdapterFixture;
let app: NestTestApp;
let routesUrl: string;
let payments: PaymentsService;

beforeAll(async () => {
  fixture = await startAdapterFixture();
  @Module({ imports: [PaymentsModule.forRoot(fixture.options)], providers: [BackOffice, RefundNotifications] })
  class AppModule {}
  app = await startNestApp(AppModule);
  routesUrl = `${app.url}/payments`;
  fixture.mountedAt(routesUrl);
  payments = app.app.get(BackOffice).payments;
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

async function payOrder1(): Promise<string> {
  const answer = await postJson(`${routesUrl}/wallet/pay`, { orderId: 'order-1', token: fixture.sandbox.mintWalletToken() });
  expect(answer.json).toMatchObject({ status: 'succeeded', transactionId: expect.any(String) });
  return (answer.json as { transactionId: string }).transactionId;
}

describe('PaymentsService lifecycle calls against the sandbox', () => {
  it('refunds part of a paid order; the refund webhook reaches @OnPaymentEvent; the query shows PART_REFUNDED', async () => {
    const transactionId = await payOrder1();
    const refund = await payments.refund({
      originalTransactionId: transactionId,
      amount: { priceCurrency: 'USD', orderAmount: 500 },
      notifyUrl: `${routesUrl}/webhook`,
    });
    expect(refund).toMatchObject({ status: 'succeeded', originalTransactionId: transactionId, amount: { totalAmount: 500 } });
    if (refund.outcomeUnknown) throw new Error('expected an answered refund');

    await fixture.sandbox.waitForDeliveries();
    const events = app.app.get(RefundNotifications).refunds.filter((event) => event.originalTransactionId === transactionId);
    expect(events).toEqual([
      expect.objectContaining({ type: 'refund.succeeded', transactionId: refund.transactionId, originalTransactionId: transactionId }),
    ]);

    const details = await payments.getTransaction({ transactionId });
    expect(details).toMatchObject({ status: 'succeeded', transactionType: 'SALE', relatedTransactionStatus: 'PART_REFUNDED' });
  });

  it('cancelCheckout() ends the order’s open session: its page answers 410, a new checkout gets a new session', async () => {
    const first = (await postJson(`${routesUrl}/checkout`, { orderId: 'order-declined' })).json as { checkoutUrl: string; sessionId: string };
    // The order's referenceOrderId, as resolveOrder gives it for 'order-declined'.
    expect(await payments.cancelCheckout('order-0002')).toEqual({ outcome: 'cancelled', sessionId: first.sessionId });
    expect((await fetch(first.checkoutUrl)).status).toBe(410);
    const second = (await postJson(`${routesUrl}/checkout`, { orderId: 'order-declined' })).json as { checkoutUrl: string };
    expect(second.checkoutUrl).not.toBe(first.checkoutUrl);
    expect(await payments.cancelCheckout('order-0002')).toMatchObject({ outcome: 'cancelled' });
  });

  it('cancels an open checkout by the sessionId POST /checkout answered; its transaction is then closed', async () => {
    // Not order-1: paid above, it is answered 409 ORDER_ALREADY_PAID (one order, one charge).
    const checkout = await postJson(`${routesUrl}/checkout`, { orderId: 'order-declined' });
    const { sessionId } = checkout.json as { sessionId: string };
    const expired = await payments.expireCheckoutSession({ sessionId, reason: 'order cancelled' });
    expect(expired).toMatchObject({ sessionId, sessionStatus: 'EXPIRED', expiredAt: expect.any(Date), transactionRequestId: expect.any(String) });
    const details = await payments.getTransaction({ transactionRequestId: expired.transactionRequestId! });
    expect(details).toMatchObject({ status: 'closed', transactionStatus: 'C' });
  });

  it('an unknown transaction is PaymentNotFoundError', async () => {
    await expect(payments.getTransaction({ transactionId: 'txn_nobody_has_this' })).rejects.toBeInstanceOf(PaymentNotFoundError);
  });
});
