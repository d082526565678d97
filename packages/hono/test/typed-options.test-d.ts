import type { OrderLookupContext, PaymentFailedEvent, PaymentRoutes, RefundSucceededEvent } from '@paymount/core';
import { Hono, type Context } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentApp, type PaymentAppOptions } from '../src';

type ShopEnv = { Variables: { shopper: string } };
declare const base: Omit<PaymentAppOptions, 'resolveOrder' | 'on'>;

describe('paymentApp options', () => {
  it("give resolveOrder and the event handlers the app's Hono Context, typed by its Env", () => {
    const payments = paymentApp<ShopEnv>({
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
    const payments = paymentApp({ ...base, resolveOrder: () => null });
    new Hono().basePath('/shop').route('/payments', payments);
    // @ts-expect-error a refund handler cannot take payment.failed events
    payments.paymentRoutes.on('payment.failed', (event: RefundSucceededEvent) => event.originalTransactionId);
    // @ts-expect-error resolveOrder gets a Hono Context, not another framework's context
    paymentApp({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null });
  });

  it("take a function of the first request's Context instead, c.env typed by the app's Bindings, and give the routes for a Context", () => {
    type WorkerEnv = { Bindings: { PAYMENT_API_KEY: string } };
    const payments = paymentApp<WorkerEnv>((c) => {
      expectTypeOf(c).toEqualTypeOf<Context<WorkerEnv>>();
      expectTypeOf(c.env.PAYMENT_API_KEY).toEqualTypeOf<string>();
      return { ...base, resolveOrder: (_orderId, ctx) => (expectTypeOf(ctx.context).toEqualTypeOf<Context<WorkerEnv>>(), null) };
    });
    new Hono<WorkerEnv>().route('/payments', payments);
    expectTypeOf(payments.getPaymentRoutes).parameter(0).toEqualTypeOf<Context<WorkerEnv>>();
    expectTypeOf(payments.getPaymentRoutes).returns.toEqualTypeOf<Promise<PaymentRoutes<Context<WorkerEnv>>>>();
    // Async too: a secret fetched from a store.
    paymentApp(async () => ({ ...base, resolveOrder: () => null }));
    // @ts-expect-error the function gives options, not a promise of something else
    paymentApp(async () => 'options');
    // @ts-expect-error the function's options are checked as the object's are: resolveOrder is required
    paymentApp(() => ({ ...base }));
  });
});
