import * as z from 'zod/mini';
import { mustBe } from './field-words';

const part = z.optional(z.number(mustBe('a number')));

/**
 * An amount as the service reports it back, in its answers and its webhooks,
 * in minor units: each part a number when sent, fields paymount does not know
 * kept. The one shape both TransactionAmount and PaymentEventAmount derive from.
 */
export const reportedAmountSchema = z.looseObject(
  {
    priceCurrency: z.string(mustBe('a string')),
    /** A refund's total, when the service sends it. */
    totalAmount: part,
    orderAmount: part,
    taxAmount: part,
    surchargeAmount: part,
    tipAmount: part,
  },
  mustBe('an object'),
);
