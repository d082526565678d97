import type { z } from 'zod';
import type * as zm from 'zod/mini';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Amount,
  CheckoutAddress,
  CheckoutSessionRequest,
  DirectPaymentRequest,
  ExpireCheckoutSessionRequest,
  OrderAttempt,
  OrderGuardOptions,
  PaymentClientOptions,
  PaymentRoutesOptions,
  PaymentTelemetry,
  ProductLineItem,
  RefundAmount,
  RefundRequest,
  TerminalSaleRequest,
  TransactionAmount,
  TransactionQuery,
  WalletPaymentRequestInput,
  WalletRouteOptions,
  WebhookRouteOptions,
  WebhookRouteSettings,
} from '../src';
import type { ResponseEnvelope, ResolvedPaymentClientOptions } from '../src/entries/schemas';
import type {
  amountSchema,
  checkoutAddressSchema,
  checkoutSessionRequestSchema,
  directPaymentRequestSchema,
  expireCheckoutSessionRequestSchema,
  paymentClientOptionsSchema,
  productLineItemSchema,
  refundAmountSchema,
  refundRequestSchema,
  reportedAmountSchema,
  responseEnvelopeSchema,
  terminalSaleRequestSchema,
  transactionQuerySchema,
} from '../src/entries/schemas';
import type { orderAttemptSchema } from '../src/entries/stores';
import type { paymentRoutesOptionsSchema, telemetryOptionsSchema, walletPaymentRequestInputSchema } from '../src/entries/internal';

// The public types are written out in src/types so that the published declarations name no zod
// (issue 30). Each is held here to the schema that checks it, input and output: a rule or field added
// to one and not the other fails the typecheck.

/** An intersection (`AccountIds & { ... }`) as one object type, which expectTypeOf compares field by field. */
type Flat<T> = { [K in keyof T]: T[K] };

describe('every public type written out equals its schema, input and output', () => {
  it('the amounts and the address', () => {
    expectTypeOf<z.input<typeof amountSchema>>().toEqualTypeOf<Amount>();
    expectTypeOf<z.output<typeof amountSchema>>().toEqualTypeOf<Amount>();
    expectTypeOf<z.input<typeof productLineItemSchema>>().toEqualTypeOf<ProductLineItem>();
    expectTypeOf<z.output<typeof productLineItemSchema>>().toEqualTypeOf<ProductLineItem>();
    expectTypeOf<z.input<typeof refundAmountSchema>>().toEqualTypeOf<RefundAmount>();
    expectTypeOf<z.output<typeof refundAmountSchema>>().toEqualTypeOf<RefundAmount>();
    expectTypeOf<zm.input<typeof reportedAmountSchema>>().toEqualTypeOf<TransactionAmount>();
    expectTypeOf<zm.output<typeof reportedAmountSchema>>().toEqualTypeOf<TransactionAmount>();
    expectTypeOf<z.input<typeof checkoutAddressSchema>>().toEqualTypeOf<CheckoutAddress>();
    expectTypeOf<z.output<typeof checkoutAddressSchema>>().toEqualTypeOf<CheckoutAddress>();
  });

  it('the request bodies', () => {
    expectTypeOf<z.input<typeof checkoutSessionRequestSchema>>().toEqualTypeOf<Flat<CheckoutSessionRequest>>();
    expectTypeOf<z.output<typeof checkoutSessionRequestSchema>>().toEqualTypeOf<Flat<CheckoutSessionRequest>>();
    expectTypeOf<z.input<typeof directPaymentRequestSchema>>().toEqualTypeOf<Flat<DirectPaymentRequest>>();
    expectTypeOf<z.output<typeof directPaymentRequestSchema>>().toEqualTypeOf<Flat<DirectPaymentRequest>>();
    expectTypeOf<z.input<typeof terminalSaleRequestSchema>>().toEqualTypeOf<TerminalSaleRequest>();
    expectTypeOf<z.output<typeof terminalSaleRequestSchema>>().toEqualTypeOf<TerminalSaleRequest>();
    expectTypeOf<z.input<typeof refundRequestSchema>>().toEqualTypeOf<Flat<RefundRequest>>();
    expectTypeOf<z.output<typeof refundRequestSchema>>().toEqualTypeOf<Flat<RefundRequest>>();
    expectTypeOf<z.input<typeof transactionQuerySchema>>().toEqualTypeOf<Flat<TransactionQuery>>();
    expectTypeOf<z.output<typeof transactionQuerySchema>>().toEqualTypeOf<Flat<TransactionQuery>>();
    expectTypeOf<z.input<typeof expireCheckoutSessionRequestSchema>>().toEqualTypeOf<Flat<ExpireCheckoutSessionRequest>>();
    expectTypeOf<z.output<typeof expireCheckoutSessionRequestSchema>>().toEqualTypeOf<Flat<ExpireCheckoutSessionRequest>>();
    expectTypeOf<z.input<typeof walletPaymentRequestInputSchema>>().toEqualTypeOf<WalletPaymentRequestInput>();
    expectTypeOf<z.output<typeof walletPaymentRequestInputSchema>>().toEqualTypeOf<WalletPaymentRequestInput>();
  });

  it('the answers: the envelope', () => {
    expectTypeOf<z.input<typeof responseEnvelopeSchema>>().toEqualTypeOf<ResponseEnvelope>();
    expectTypeOf<z.output<typeof responseEnvelopeSchema>>().toEqualTypeOf<ResponseEnvelope>();
  });

  it("the client's options, as written and once defaulted", () => {
    expectTypeOf<z.input<typeof paymentClientOptionsSchema>>().toEqualTypeOf<PaymentClientOptions>();
    expectTypeOf<z.output<typeof paymentClientOptionsSchema>>().toEqualTypeOf<Flat<ResolvedPaymentClientOptions>>();
    expectTypeOf<z.input<typeof telemetryOptionsSchema>>().toEqualTypeOf<PaymentTelemetry | undefined>();
    expectTypeOf<z.output<typeof telemetryOptionsSchema>>().toEqualTypeOf<PaymentTelemetry | undefined>();
  });

  it("the routes' options, with and without an adapter's context", () => {
    type RoutesSchema<TContext> = ReturnType<typeof paymentRoutesOptionsSchema<TContext>>;
    expectTypeOf<z.input<RoutesSchema<unknown>>>().toEqualTypeOf<PaymentRoutesOptions>();
    expectTypeOf<z.input<RoutesSchema<{ user: string }>>>().toEqualTypeOf<PaymentRoutesOptions<{ user: string }>>();
    type Shape = RoutesSchema<unknown>['shape'];
    expectTypeOf<NonNullable<z.input<Shape['orders']>>>().toEqualTypeOf<OrderGuardOptions>();
    expectTypeOf<NonNullable<z.output<Shape['orders']>>>().toEqualTypeOf<OrderGuardOptions>();
    expectTypeOf<NonNullable<z.input<Shape['wallet']>>>().toEqualTypeOf<WalletRouteOptions>();
    expectTypeOf<NonNullable<z.output<Shape['wallet']>>>().toEqualTypeOf<WalletRouteOptions>();
    // The webhook schema checks the secrets as two optional fields; the type takes exactly one of them.
    expectTypeOf<z.input<Shape['webhook']>>().toEqualTypeOf<WebhookRouteOptions>();
    expectTypeOf<Omit<z.output<Shape['webhook']>, 'secret' | 'secrets'>>().toEqualTypeOf<WebhookRouteSettings>();
  });

  it('the order attempt a store reads back', () => {
    expectTypeOf<z.output<typeof orderAttemptSchema>>().toEqualTypeOf<OrderAttempt>();
  });
});
