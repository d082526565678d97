import { describe, expectTypeOf, it } from 'vitest';
import type { DedupeSettings, MerchantOrder, OrderGuardSettings, OrderLookupContext, PaymentRoutesOptions, WebhookRouteOptions } from '../src';
import type { paymentRoutesOptionsSchema, ResolvedOrderOptions, ResolvedWebhookOptions } from '../src/entries/internal';

describe('PaymentRoutesOptions, held to the schema that checks it', () => {
  it('has exactly the keys the start-up check accepts', () => {
    type SchemaKeys = keyof ReturnType<typeof paymentRoutesOptionsSchema>['shape'];
    expectTypeOf<keyof PaymentRoutesOptions>().toEqualTypeOf<SchemaKeys>();
  });

  it('resolves the settings a lower layer reads to exactly their written types (the parse fills each default in)', () => {
    expectTypeOf<Pick<ResolvedOrderOptions, keyof OrderGuardSettings>>().toEqualTypeOf<OrderGuardSettings>();
    expectTypeOf<Pick<ResolvedWebhookOptions, keyof DedupeSettings>>().toEqualTypeOf<DedupeSettings>();
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
