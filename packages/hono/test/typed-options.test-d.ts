import type { OrderLookupContext, PaymentFailedEvent, RefundSucceededEvent } from '@paymount/core';
import { Hono, type Context } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentRoutes, type PaymentRoutesAppOptions } from '../src';

type ShopEnv = { Variables: { shopper: string } };
declare const base: Omit<PaymentRoutesAppOptions, 'resolveOrder' | 'on'>;

describe('paymentRoutes options', () => {
  it("give resolveOrder and the event handlers the app's Hono Context, typed by its Env", () => {
    const payments = paymentRoutes<ShopEnv>({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<Context<ShopEnv>>();
        expectTypeOf(ctx.context.get('shopper')).toEqualTypeOf<string>();
        return null;
      },
      on: {
        'refund.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<Context<ShopEnv> | undefined>();
        },
      },
    });
    payments.paymentRoutes.on('payment.failed', (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PaymentFailedEvent>();
      expectTypeOf(ctx.context).toEqualTypeOf<Context<ShopEnv> | undefined>();
    });
    new Hono<ShopEnv>().route('/payments', payments);
  });

  it('mount on any app, and refuse a handler of the wrong signature or another framework’s context', () => {
    const payments = paymentRoutes({ ...base, resolveOrder: () => null });
    new Hono().basePath('/shop').route('/payments', payments);
    // @ts-expect-error a refund handler cannot take payment.failed events
    payments.paymentRoutes.on('payment.failed', (event: RefundSucceededEvent) => event.originalTransactionId);
    // @ts-expect-error resolveOrder gets a Hono Context, not another framework's context
    paymentRoutes({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null });
  });
});
