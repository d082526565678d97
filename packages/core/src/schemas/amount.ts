// Amount schemas, the reported amount, the words of a broken field rule.
import * as z from 'zod/mini';
import { CURRENCY_RULE_MESSAGE, isCurrencyCode } from '../shared/money';

/**
 * A zod `error` option in paymount's words (`is required`, `must be a string`), the same
 * whichever zod is loaded: zod mini sets no locale, so without it a refused webhook field
 * read "Invalid input" when `@paymount/core/webhooks` is all an app loads.
 */
export function mustBe(expected: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => (issue.input === undefined ? 'is required' : `must be ${expected}`) };
}

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

/**
 * An amount in the currency's smallest unit. A decimal such as 12.5 is the
 * classic mistake (sending major units), so it gets its own rule and a message
 * that says how to fix it.
 */
export const minorUnitsSchema = z.number('must be a number: an integer amount in minor units').check(
  z.refine(Number.isInteger, {
    message: 'amounts are integers in minor units (e.g. 1250 for 12.50 USD); convert a decimal with toMinorUnits(value, currency)',
    params: { rule: 'integer_minor_units' },
    abort: true,
  }),
  z.refine((value) => value >= 0, { message: 'must not be negative', params: { rule: 'non_negative' }, abort: true }),
  // Aborts, like the two above, so a rule adding amounts up (a payable total, a refund's parts, a
  // product list) runs only on exact amounts and never reports a sum of unreadable ones.
  z.refine(Number.isSafeInteger, { message: 'is too large to be exact', params: { rule: 'safe_integer' }, abort: true }),
);

export const currencyCodeSchema = z.string().check(
  z.refine(isCurrencyCode, {
    message: CURRENCY_RULE_MESSAGE,
    params: { rule: 'iso_4217' },
  }),
);

export const amountSchema = z
  .strictObject({
    orderAmount: minorUnitsSchema,
    taxAmount: z.optional(minorUnitsSchema),
    surchargeAmount: z.optional(minorUnitsSchema),
    priceCurrency: currencyCodeSchema,
  })
  .check(
    z.refine((amount) => payableTotal(amount) > 0, {
      message: 'the payable total (orderAmount + taxAmount + surchargeAmount) must be greater than 0',
      params: { rule: 'positive_total' },
      path: ['orderAmount'],
    }),
  );

export type { Amount, ProductLineItem } from '../shared/types';

/** orderAmount + taxAmount + surchargeAmount, in minor units. */
export function payableTotal(amount: { orderAmount: number; taxAmount?: number | undefined; surchargeAmount?: number | undefined }): number {
  return amount.orderAmount + (amount.taxAmount ?? 0) + (amount.surchargeAmount ?? 0);
}

export const productLineItemSchema = z.strictObject({
  amount: minorUnitsSchema,
  name: z.string().check(z.minLength(1, 'must not be empty')),
  num: z
    .number()
    .check(
      z.refine(Number.isSafeInteger, { message: 'must be a whole number', params: { rule: 'integer' }, abort: true }),
      z.refine((value) => value >= 1, { message: 'must be at least 1', params: { rule: 'min' } }),
    ),
});
