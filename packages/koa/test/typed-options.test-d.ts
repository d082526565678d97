import type { OrderLookupContext, PaymentClosedEvent, RefundFailedEvent } from '@paymount/core';
import type { Context } from 'koa';
import { describe, expectTypeOf, it } from 'vitest';
import { mountPaymentRoutes, paymentMiddleware, type PaymentMiddlewareOptions, type RouterLike } from '../src';

declare const base: Omit<PaymentMiddlewareOptions, 'resolveOrder' | 'on'>;
declare const router: RouterLike;

describe('paymentMiddleware and mountPaymentRoutes options', () => {
  it('give resolveOrder and the event handlers the Koa Context, and each handler its own event', () => {
    const middleware = paymentMiddleware({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<Context>();
        return null;
      },
      on: {
        'refund.failed': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundFailedEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<Context | undefined>();
        },
      },
    });
    middleware.paymentRoutes.on('payment.closed', (event) => expectTypeOf(event).toEqualTypeOf<PaymentClosedEvent>());
    const { paymentRoutes } = mountPaymentRoutes(router, '/payments', {
      ...base,
      resolveOrder: (_orderId, ctx) => expectTypeOf(ctx.context).toEqualTypeOf<Context>() && null,
    });
    paymentRoutes.on('*', (_event, ctx) => expectTypeOf(ctx.context).toEqualTypeOf<Context | undefined>());
  });

  it('refuse a handler of the wrong signature, and another framework’s context', () => {
    const middleware = paymentMiddleware({ ...base, resolveOrder: () => null });
    // @ts-expect-error a payment.closed handler cannot take refund.failed events
    middleware.paymentRoutes.on('refund.failed', (event: PaymentClosedEvent) => event.sessionId);
    // @ts-expect-error resolveOrder gets a Koa Context, not another framework's request
    paymentMiddleware({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ raw: string }>) => null });
  });
});
