import type { OrderLookupContext, PaymentRoutes, PaymentSucceededEvent, RefundSucceededEvent } from '@paymount/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentPlugin, type PaymentPluginOptions } from '../src';

declare const app: FastifyInstance;
declare const base: Omit<PaymentPluginOptions, 'resolveOrder' | 'on'>;

describe('paymentPlugin options', () => {
  it('give resolveOrder and the event handlers the FastifyRequest, and each handler its own event', async () => {
    await app.register(paymentPlugin, {
      ...base,
      prefix: '/payments',
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<FastifyRequest>();
        return null;
      },
      on: {
        'payment.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<PaymentSucceededEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<FastifyRequest | undefined>();
        },
      },
    });
    expectTypeOf(app.paymentRoutes).toEqualTypeOf<PaymentRoutes<FastifyRequest>>();
    app.paymentRoutes.on('refund.succeeded', (event) => expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>());
  });

  it('refuse a handler of the wrong signature, and another framework’s context', async () => {
    // @ts-expect-error a refund handler cannot take payment.succeeded events
    app.paymentRoutes.on('payment.succeeded', (event: RefundSucceededEvent) => event.originalTransactionId);
    const options: PaymentPluginOptions = {
      ...base,
      // @ts-expect-error resolveOrder gets a FastifyRequest, not another framework's request
      resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null,
    };
    await app.register(paymentPlugin, options);
  });
});
