import { describe, expectTypeOf, it } from 'vitest';
import type { MerchantOrder, OrderLookupContext, PaymentRoutesOptions, WebhookRouteOptions } from '../src';
import type { paymentRoutesOptionsSchema } from '../src/entries/internal';

describe('PaymentRoutesOptions, held to the schema that checks it', () => {
  it('has exactly the keys the start-up check accepts', () => {
    type SchemaKeys = keyof ReturnType<typeof paymentRoutesOptionsSchema>['shape'];
    expectTypeOf<keyof PaymentRoutesOptions>().toEqualTypeOf<SchemaKeys>();
  });

  it('types the functions precisely, with the adapter context', () => {
    expectTypeOf<PaymentRoutesOptions<{ user: string }>['resolveOrder']>()
      .parameter(1)
      .toEqualTypeOf<OrderLookupContext<{ user: string }>>();
    expectTypeOf<NonNullable<PaymentRoutesOptions['notifyUrl']>>().toEqualTypeOf<
      string | ((order: MerchantOrder) => string | undefined)
    >();
  });

  it('takes exactly one of secret or secrets', () => {
    expectTypeOf<{ secret: string }>().toMatchTypeOf<WebhookRouteOptions>();
    expectTypeOf<{ secrets: string[] }>().toMatchTypeOf<WebhookRouteOptions>();
    expectTypeOf<{ secret: string; secrets: string[] }>().not.toMatchTypeOf<WebhookRouteOptions>();
    expectTypeOf<{ toleranceMs: number }>().not.toMatchTypeOf<WebhookRouteOptions>();
  });
});
