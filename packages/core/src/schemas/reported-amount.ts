// zod/mini, imported whole as a namespace (zm: the bundled declarations keep `z` for zod classic): the webhook entry (`@paymount/core/webhooks`) reads this
// schema, and a bundle pays only for the zod functions it calls. Classic schemas take it as a part.
import * as zm from 'zod/mini';
import { mustBe } from './field-words';

const part = zm.optional(zm.number(mustBe('a number')));

/**
 * An amount as the service reports it back, in its answers and its webhooks,
 * in minor units: each part a number when sent, fields paymount does not know
 * kept. The one shape both TransactionAmount and PaymentEventAmount derive from.
 */
export const reportedAmountSchema = zm.looseObject(
  {
    priceCurrency: zm.string(mustBe('a string')),
    /** A refund's total, when the service sends it. */
    totalAmount: part,
    orderAmount: part,
    taxAmount: part,
    surchargeAmount: part,
    tipAmount: part,
  },
  mustBe('an object'),
);
