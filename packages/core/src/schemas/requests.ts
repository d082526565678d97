// The service's request schemas (session, direct payment, refund, query, ...) and the wallet input.
import * as z from 'zod/mini';
import { amountSchema, currencyCodeSchema, minorUnitsSchema, productLineItemSchema } from './amount';
import { compiled } from './compiled';
import { appIdSchema, countryCodeSchema, descriptionSchema, longTransactionRequestIdSchema, MERCHANT_RETURN_URL_MAX, merchantIdSchema, NOTIFY_URL_MAX, referenceOrderIdSchema, transactionIdSchema, transactionRequestIdSchema } from './fields';
import { callbackUrlSchema, type SchemaContext } from './urls';

/**
 * A request schema factory that compiles each of its variants once: a
 * SchemaContext holds only `localDevelopment`, so there are two, and every
 * client (and the exported strict schema) shares them instead of compiling
 * its own.
 */
export function perContext<S>(build: (context: SchemaContext) => S): (context?: SchemaContext) => S {
  const built = new Map<boolean, S>();
  return (context = {}) => {
    const localDevelopment = context.localDevelopment === true;
    let schema = built.get(localDevelopment);
    if (schema === undefined) {
      schema = build({ localDevelopment });
      built.set(localDevelopment, schema);
    }
    return schema;
  };
}

/**
 * Requires exactly one of two alternative fields (two ways to name the same
 * transaction). The service would take the first of both silently; refusing
 * both makes a mix-up visible before anything is sent.
 */
export function withExactlyOneOf<S extends z.ZodMiniType<Record<string, unknown>>>(schema: S, first: string, second: string, names: string): S {
  return schema.check(
    z.refine((body: Record<string, unknown>) => body[first] !== undefined || body[second] !== undefined, {
      message: `${first} or ${second} is required: ${names}`,
      params: { rule: 'one_required' },
      path: [first],
    }),
    z.refine((body: Record<string, unknown>) => body[first] === undefined || body[second] === undefined, {
      message: `send ${first} or ${second}, not both`,
      params: { rule: 'only_one' },
      path: [second],
    }),
  );
}

const line = (max: number, ...checks: z.core.$ZodCheck<string>[]) =>
  z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(max, `must be at most ${max} characters`), ...checks);

/**
 * A billing or shipping address of a direct payment (the vendor's
 * CheckoutAddress). Every part is optional; those sent must be usable for
 * address verification, so empty strings and free-form country names are refused.
 */
export const checkoutAddressSchema = z.strictObject({
  line1: z.optional(line(128)),
  line2: z.optional(line(128)),
  city: z.optional(line(64)),
  state: z.optional(line(64)),
  postalCode: z.optional(line(16, z.regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'may contain only letters, digits, spaces and "-"'))),
  countryCode: z.optional(countryCodeSchema),
});

export type { CheckoutAddress } from '../shared/types';

// An empty list aborts: its sum (0) says nothing about orderAmount.
export const productListSchema = z.array(productLineItemSchema).check(z.minLength(1, { message: 'must hold at least one item when sent', abort: true }));

interface WithProductList {
  amount: { orderAmount: number };
  productList?: ReadonlyArray<{ amount: number; num: number }> | undefined;
}

/**
 * Adds the rule (docs/service-contract.md#product-list) that the items of `productList` add up to
 * `amount.orderAmount`, to every body that carries both (create-session and
 * direct payment), so an order valid on one path is valid on the other.
 * Unknown fields, text and URL issues do not abort, so the sum is reported
 * alongside them; an unreadable amount or item does, and skips it.
 */
export function withProductListSum<S extends z.ZodMiniType<WithProductList>>(schema: S): S {
  return schema.check(
    z.refine((body: WithProductList) => body.productList === undefined || productListTotal(body.productList) === body.amount.orderAmount, {
      message: 'the sum of amount × num over productList must equal amount.orderAmount',
      params: { rule: 'product_list_sum' },
      path: ['productList'],
    }),
  );
}

function productListTotal(items: ReadonlyArray<{ amount: number; num: number }>): number {
  return items.reduce((sum, item) => sum + item.amount * item.num, 0);
}

/**
 * The merchant's order by the rules of the payment requests made from it
 * (create-session, direct payment: the same field schemas, and their product
 * list sum), checked before any store sees it: a store must neither keep an
 * amount the service would refuse nor fail on one (a decimal in a bigint
 * column reads as an outage). Its other fields are judged where they are
 * used: `payable` by the guard, `merchantReturnUrl` by the client, whose
 * `localDevelopment` decides what a callback URL may be. Fields of the
 * merchant's own pass.
 */
export const merchantOrderSchema = compiled(
  withProductListSum(
    z.object({
      referenceOrderId: referenceOrderIdSchema,
      amount: amountSchema,
      description: descriptionSchema,
      productList: z.optional(productListSchema),
    }),
  ),
);

const checkoutSessionSchemas = perContext((context) =>
  compiled(
    withProductListSum(
      z.strictObject({
        appId: appIdSchema,
        transactionRequestId: transactionRequestIdSchema,
        referenceOrderId: referenceOrderIdSchema,
        merchantId: merchantIdSchema,
        amount: amountSchema,
        description: descriptionSchema,
        productList: z.optional(productListSchema),
        collectBillingAddress: z.optional(z.boolean()),
        collectShippingAddress: z.optional(z.boolean()),
        merchantReturnUrl: z.optional(callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context)),
        notifyUrl: z.optional(callbackUrlSchema(NOTIFY_URL_MAX, context)),
      }),
    ),
  ),
);

/**
 * The create-session request body with every rule of docs/service-contract.md#checkout-session.
 * Unknown fields are refused: a misspelt `notifyURL` would otherwise be dropped
 * silently and no webhook would ever arrive.
 */
export function createCheckoutSessionRequestSchema(context: SchemaContext = {}) {
  return checkoutSessionSchemas(context);
}

/** The strict schema: callback URLs must be public HTTPS. */
export const checkoutSessionRequestSchema = createCheckoutSessionRequestSchema();

export type { CheckoutSessionRequest } from '../shared/types';

/**
 * The wallet token as the wallet API hands it over, forwarded untouched: its
 * content is for the service to decrypt, so only its shape is checked here.
 */
export const walletTokenSchema = z
  .string('must be the wallet token string (paymentMethodData.tokenizationData.token)')
  .check(z.minLength(1, 'must not be empty'), z.maxLength(65_536, 'must be at most 65536 characters'));

const directPaymentSchemas = perContext((context) =>
  compiled(
    withProductListSum(
      z.strictObject({
        appId: appIdSchema,
        merchantId: merchantIdSchema,
        transactionRequestId: transactionRequestIdSchema,
        referenceOrderId: referenceOrderIdSchema,
        description: descriptionSchema,
        amount: amountSchema,
        productList: z.optional(productListSchema),
        paymentMethod: z.literal('WALLET_PAY', 'must be "WALLET_PAY"'),
        cardEncryptedData: walletTokenSchema,
        customerEmail: z.optional(z.email('must be an email address').check(z.maxLength(254, 'must be at most 254 characters'))),
        customerName: z.optional(
          z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(128, 'must be at most 128 characters')),
        ),
        billingAddress: z.optional(checkoutAddressSchema),
        shippingAddress: z.optional(checkoutAddressSchema),
        notifyUrl: z.optional(callbackUrlSchema(NOTIFY_URL_MAX, context)),
        merchantReturnUrl: z.optional(callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context)),
      }),
    ),
  ),
);

/**
 * The direct payment body (docs/service-contract.md#direct-payment). The service shows the fields
 * but not their types or lengths; those it shares with create-session follow
 * the same rules, so one order is valid on both paths. The optional customer
 * fields are the vendor's.
 */
export function createDirectPaymentRequestSchema(context: SchemaContext = {}) {
  return directPaymentSchemas(context);
}

export const directPaymentRequestSchema = createDirectPaymentRequestSchema();

export type { DirectPaymentRequest } from '../shared/types';

/** The expire-session request body (POST /v1/checkout/expire-session), the vendor's ExpireCheckoutSessionRequest. */
export const expireCheckoutSessionRequestSchema = compiled(
  z.strictObject({
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    sessionId: z
      .string('must be the sessionId create-session answered')
      .check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters')),
    reason: z.optional(z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(256, 'must be at most 256 characters'))),
  }),
);

export type { ExpireCheckoutSessionRequest } from '../shared/types';

const refundPartsShape = {
  orderAmount: z.optional(minorUnitsSchema),
  taxAmount: z.optional(minorUnitsSchema),
  surchargeAmount: z.optional(minorUnitsSchema),
  tipAmount: z.optional(minorUnitsSchema),
};
type RefundPart = keyof typeof refundPartsShape;
const REFUND_PARTS = Object.keys(refundPartsShape) as RefundPart[];

type RefundParts = Partial<Record<RefundPart, number | undefined>>;

/** orderAmount + taxAmount + surchargeAmount + tipAmount of a refund, absent parts counting 0. */
export function refundPartsTotal(amount: RefundParts): number {
  return REFUND_PARTS.reduce((sum, part) => sum + (amount[part] ?? 0), 0);
}

/**
 * How much of a payment to give back, in minor units (the vendor's
 * OnlineRefundAmount). `totalAmount`, when sent, must equal the sum of the
 * parts; leaving `amount` out of a refund gives back the whole remaining balance.
 */
export const refundAmountSchema = z
  .strictObject({
    priceCurrency: currencyCodeSchema,
    totalAmount: z.optional(minorUnitsSchema),
    ...refundPartsShape,
  })
  .check(
    z.refine((amount) => amount.totalAmount === undefined || amount.totalAmount === refundPartsTotal(amount), {
      message: 'must equal orderAmount + taxAmount + surchargeAmount + tipAmount (absent parts count as 0)',
      params: { rule: 'total_amount_sum' },
      path: ['totalAmount'],
    }),
    z.refine((amount) => refundPartsTotal(amount) > 0, {
      message:
        'a refund must give back more than 0: send the parts to refund (orderAmount…), or leave amount out to refund the whole remaining balance',
      params: { rule: 'positive_total' },
      path: ['orderAmount'],
    }),
  );

export type { RefundAmount } from '../shared/types';

const refundRequestSchemas = perContext((context) =>
  compiled(
    withExactlyOneOf(
      z.strictObject({
        appId: appIdSchema,
        merchantId: merchantIdSchema,
        transactionRequestId: longTransactionRequestIdSchema,
        originalTransactionId: z.optional(transactionIdSchema),
        originalTransactionRequestId: z.optional(longTransactionRequestIdSchema),
        amount: z.optional(refundAmountSchema),
        description: z.optional(descriptionSchema),
        attach: z.optional(z.string().check(z.maxLength(512, 'must be at most 512 characters'))),
        notifyUrl: z.optional(callbackUrlSchema(NOTIFY_URL_MAX, context)),
      }),
      'originalTransactionId',
      'originalTransactionRequestId',
      'the payment to refund',
    ),
  ),
);

/**
 * The refund request body (POST /v1/checkout/refund), field for field the
 * vendor's OnlineRefundRequest. The payment is named by exactly one of its two
 * ids; unknown fields are refused like everywhere else.
 */
export function createRefundRequestSchema(context: SchemaContext = {}) {
  return refundRequestSchemas(context);
}

/** The strict schema: notifyUrl must be public HTTPS. */
export const refundRequestSchema = createRefundRequestSchema();

export type { RefundRequest } from '../shared/types';

/**
 * The terminal sale body (docs/service-contract.md#terminal-sale). The service names only
 * `amount` and `priceCurrency`; the identifiers follow the other endpoints, and
 * further fields pass through unchanged because their contract is not shown.
 */
export const terminalSaleRequestSchema = compiled(
  z
    .looseObject({
      appId: appIdSchema,
      merchantId: merchantIdSchema,
      transactionRequestId: transactionRequestIdSchema,
      amount: minorUnitsSchema,
      priceCurrency: currencyCodeSchema,
    })
    .check(
      z.refine((body) => body.amount > 0, {
        message: 'must be greater than 0',
        params: { rule: 'positive_total' },
        path: ['amount'],
      }),
    ),
);

export type { TerminalSaleRequest } from '../shared/types';

/** The query string of GET /v1/transaction/query: the transaction named by exactly one of its ids. */
export const transactionQuerySchema = compiled(
  withExactlyOneOf(
    z.strictObject({
      appId: appIdSchema,
      merchantId: merchantIdSchema,
      transactionId: z.optional(transactionIdSchema),
      transactionRequestId: z.optional(longTransactionRequestIdSchema),
    }),
    'transactionId',
    'transactionRequestId',
    'the transaction to look up',
  ),
);

export type { TransactionQuery } from '../shared/types';

// Kept apart from the wallet payment request (routes/order-routes.ts), whose declarations the root entry publishes: a schema's declarations name zod.
/** The rules of buildWalletPaymentRequest's input, which the wallet route's options share. */
export const walletPaymentRequestInputSchema = z.strictObject({
  amount: amountSchema,
  gatewayId: z.string().check(z.minLength(1, 'must not be empty')),
  merchantId: merchantIdSchema,
  allowedCardNetworks: z.optional(
    z
      .array(z.string().check(z.regex(/^[A-Z_]+$/, 'must be an upper-case wallet network code such as "VISA"')))
      .check(z.minLength(1, 'must list at least one card network')),
  ),
  merchantName: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  countryCode: z.optional(countryCodeSchema),
});
