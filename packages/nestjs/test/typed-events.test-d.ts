import type { PaymentClosedEvent, PaymentEvent, PaymentFailedEvent, RefundFailedEvent, RefundSucceededEvent } from '@paymount/core';
import { describe, expectTypeOf, it } from 'vitest';
import { OnPaymentEvent, PaymentsModule, type NestPlatformRequest, type PaymentsModuleOptions, type PaymentsService } from '../src';

declare const base: Omit<PaymentsModuleOptions, 'resolveOrder' | 'on'>;
declare const payments: PaymentsService;

describe('@OnPaymentEvent', () => {
  it('takes a method accepting the events of its names, or a wider event', () => {
    class Handlers {
      @OnPaymentEvent('refund.failed')
      refundFailed(event: RefundFailedEvent, ctx: { context: NestPlatformRequest | undefined }): string {
        return `${event.reason.code} ${ctx.context === undefined ? 'reconciled' : 'delivered'}`;
      }

      @OnPaymentEvent('payment.failed', 'payment.closed')
      reopen(event: PaymentFailedEvent | PaymentClosedEvent): string {
        return event.reason.message;
      }

      @OnPaymentEvent('*')
      audit(event: PaymentEvent): string {
        return event.type;
      }

      @OnPaymentEvent('refund.succeeded')
      anyEvent(event: PaymentEvent): string {
        return event.type;
      }
    }
    expectTypeOf<Handlers>().toHaveProperty('refundFailed');
  });

  it('refuses a method of the wrong signature and a name that is no event', () => {
    class Handlers {
      // @ts-expect-error a refund.succeeded method cannot take payment.succeeded events
      @OnPaymentEvent('payment.succeeded')
      paid(event: RefundSucceededEvent): string {
        return event.originalTransactionId;
      }

      // @ts-expect-error payment.closed events are not all payment.failed ones
      @OnPaymentEvent('payment.failed', 'payment.closed')
      failed(event: PaymentFailedEvent): string {
        return event.reason.code;
      }

      // @ts-expect-error misspelt
      @OnPaymentEvent('refund.succeded')
      misspelt(): void {}
    }
    expectTypeOf<Handlers>().toHaveProperty('paid');
  });
});

describe('PaymentsModule options', () => {
  it('give resolveOrder and the event handlers the platform request', () => {
    PaymentsModule.forRoot({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<NestPlatformRequest>();
        return null;
      },
      on: { 'refund.succeeded': (event) => expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>() },
    });
    payments.paymentRoutes.on('payment.closed', (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PaymentClosedEvent>();
      expectTypeOf(ctx.context).toEqualTypeOf<NestPlatformRequest | undefined>();
    });
  });
});
