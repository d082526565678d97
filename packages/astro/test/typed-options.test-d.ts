import type { APIContext, APIRoute } from 'astro';
import type { OrderLookupContext, PaymentFailedEvent, PaymentRoutes, RefundSucceededEvent } from '@paymount/core';
import { describe, expectTypeOf, it } from 'vitest';
import { paymentEndpoints, type PaymentEndpointsOptions } from '../src';

declare const base: Omit<PaymentEndpointsOptions, 'resolveOrder' | 'on'>;

describe('paymentEndpoints options', () => {
  it("give resolveOrder and the event handlers Astro's APIContext", () => {
    const endpoints = paymentEndpoints({
      ...base,
      resolveOrder: (_orderId, ctx) => {
        expectTypeOf(ctx.context).toEqualTypeOf<APIContext>();
        expectTypeOf(ctx.context.locals).toEqualTypeOf<App.Locals>();
        return null;
      },
      on: {
        'refund.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<APIContext | undefined>();
        },
      },
    });
    expectTypeOf(endpoints.GET).toEqualTypeOf<APIRoute>();
    expectTypeOf(endpoints.ALL).toEqualTypeOf<APIRoute>();
    expectTypeOf(endpoints.getPaymentRoutes).returns.resolves.toEqualTypeOf<PaymentRoutes<APIContext>>();
  });

  it('take a function of the first request’s APIContext, and refuse another framework’s context', async () => {
    const endpoints = paymentEndpoints(async (context) => {
      expectTypeOf(context).toEqualTypeOf<APIContext>();
      return { ...base, resolveOrder: () => null };
    });
    const routes = await endpoints.getPaymentRoutes({} as APIContext);
    routes.on('payment.failed', (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PaymentFailedEvent>();
      expectTypeOf(ctx.context).toEqualTypeOf<APIContext | undefined>();
    });
    // @ts-expect-error resolveOrder gets Astro's APIContext, not another framework's context
    paymentEndpoints({ ...base, resolveOrder: (_orderId, _ctx: OrderLookupContext<{ state: number }>) => null });
  });
});
