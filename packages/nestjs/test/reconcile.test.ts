import { Injectable, Module } from '@nestjs/common';
import type { PaymentEvent } from '@paymount/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
import { OnPaymentEvent, PaymentsModule, PaymentsService } from '../src';
import { startNestApp, type NestTestApp } from './support';

@Injectable()
class OrderBook {
  readonly paid: PaymentEvent[] = [];

  @OnPaymentEvent('payment.succeeded')
  markPaid(event: PaymentEvent): void {
    this.paid.push(event);
  }
}

let fixture: AdapterFixture;
let app: NestTestApp;

beforeAll(async () => {
  fixture = await startAdapterFixture();
  // No notifyUrl: the service sends no webhook, so only reconciliation can tell the app.
  const { notifyUrl: _none, ...options } = fixture.options;
  @Module({ imports: [PaymentsModule.forRoot(options)], providers: [OrderBook] })
  class AppModule {}
  app = await startNestApp(AppModule);
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

it('PaymentsService.reconcile() hands a payment no webhook reported to @OnPaymentEvent, once', async () => {
  const paid = await postJson(`${app.url}/payments/wallet/pay`, { orderId: 'order-1', token: fixture.sandbox.mintWalletToken() });
  expect(paid.json).toMatchObject({ status: 'succeeded' });
  const payments = app.app.get(PaymentsService);
  const book = app.app.get(OrderBook);
  expect(book.paid).toEqual([]);
  expect(await payments.reconcile({ olderThanMs: 0 })).toEqual({ checked: 1, settled: 1, stillPending: 0, errors: 0 });
  expect(book.paid.map((event) => event.transactionId)).toEqual([(paid.json as { transactionId: string }).transactionId]);
  expect(await payments.reconcile({ olderThanMs: 0 })).toEqual({ checked: 0, settled: 0, stillPending: 0, errors: 0 });
  expect(book.paid).toHaveLength(1);
  expect(fixture.sandbox.deliveries()).toEqual([]);
});
