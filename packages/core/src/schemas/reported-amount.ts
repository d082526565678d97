import { z } from 'zod';

const part = z.number().optional();

/**
 * An amount as the service reports it back, in its answers and its webhooks,
 * in minor units: each part a number when sent, fields paymount does not know
 * kept. The one shape both TransactionAmount and PaymentEventAmount derive from.
 */
export const reportedAmountSchema = z.looseObject({
  priceCurrency: z.string(),
  /** A refund's total, when the service sends it. */
  totalAmount: part,
  orderAmount: part,
  taxAmount: part,
  surchargeAmount: part,
  tipAmount: part,
});
