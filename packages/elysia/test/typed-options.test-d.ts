import type { OrderLookupContext, PaymentRoutes, RefundSucceededEvent } from '@paymount/core';
import { Elysia, type Context } from 'elysia';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentPlugin, type PaymentPluginOptions } from '../src';

declare const base: Omit<PaymentPluginOptions, 'resolveOrder' | 'on'>;

describe('paymentPlugin options', () => {
  it("give resolveOrder and the event handlers the route's Elysia Context", () => {
    paymentPlugin({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<Context>();
        return null;
      },
      on: {
        'refund.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
          // Reconciliation brings events without a request.
          expectTypeOf(ctx.context).toEqualTypeOf<Context | undefined>();
        },
      },
    });
  });

  it("give the app's handlers the core routes as paymentRoutes, and refuse another framework's context", () => {
    new Elysia({ prefix: '/shop' })
      .use(paymentPlugin({ ...base, prefix: '/payments', resolveOrder: () => null }))
      .get('/refund', ({ paymentRoutes }) => expectTypeOf(paymentRoutes).toEqualTypeOf<PaymentRoutes<Context>>());
    // @ts-expect-error resolveOrder gets an Elysia Context, not another framework's context
    paymentPlugin({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null });
  });
});
