import type { OrderLookupContext, PaymentFailedEvent, RefundSucceededEvent } from '@paymount/core';
import type { Request } from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentRouter, type PaymentRouterOptions } from '../src';

declare const base: Omit<PaymentRouterOptions, 'resolveOrder' | 'on'>;

describe('paymentRouter options', () => {
  it('give resolveOrder and the event handlers the Express Request, and each handler its own event', () => {
    const router = paymentRouter({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<Request>();
        return null;
      },
      on: {
        'refund.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<Request | undefined>();
        },
      },
    });
    router.paymentRoutes.on('payment.failed', (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PaymentFailedEvent>();
      expectTypeOf(ctx.context).toEqualTypeOf<Request | undefined>();
    });
  });

  it('refuse a handler of the wrong signature, and another framework’s context', () => {
    const router = paymentRouter({ ...base, resolveOrder: () => null });
    // @ts-expect-error a refund handler cannot take payment.failed events
    router.paymentRoutes.on('payment.failed', (event: RefundSucceededEvent) => event.originalTransactionId);
    // @ts-expect-error resolveOrder gets an Express Request, not another framework's context
    paymentRouter({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null });
  });
});
