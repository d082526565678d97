import * as z from 'zod/mini';
import { compiled } from './compiled';
import { currencyCodeSchema, minorUnitsSchema } from './amount';
import {
  appIdSchema,
  descriptionSchema,
  longTransactionRequestIdSchema,
  merchantIdSchema,
  NOTIFY_URL_MAX,
  transactionIdSchema,
} from './fields';
import { withExactlyOneOf } from './exactly-one';
import { perContext } from './per-context';
import { callbackUrlSchema, type SchemaContext } from './urls';

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

export type { RefundAmount } from '../types/amount';

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

export type { RefundRequest } from '../types/requests';
