// The money shapes of the public API, written out so that the published declarations name no zod
// (a strict CommonJS app without esModuleInterop cannot load zod's typings). The schemas that check
// them are held to them by test/public-types.test-d.ts. Object types rather than interfaces, like the
// inferred types they replace: an app may pass them where a Record<string, unknown> is expected.

/**
 * An order's amount. Every part is an integer in the currency's minor units (1250 is 12.50 USD;
 * `toMinorUnits(12.5, 'USD')` converts), never negative; the payable total
 * `orderAmount + taxAmount + surchargeAmount` must be greater than 0.
 */
export type Amount = {
  /** The goods' price: an integer in minor units, 0 or more. */
  orderAmount: number;
  /** Tax on top of `orderAmount`: an integer in minor units, 0 or more; absent counts 0. */
  taxAmount?: number | undefined;
  /** A surcharge on top of `orderAmount`: an integer in minor units, 0 or more; absent counts 0. */
  surchargeAmount?: number | undefined;
  /** An active ISO 4217 currency code in upper case, e.g. `"USD"`. */
  priceCurrency: string;
};

/** One line of an order's `productList`. Over the list, `amount × num` must add up to `amount.orderAmount`. */
export type ProductLineItem = {
  /** The unit price: an integer in minor units, 0 or more. */
  amount: number;
  /** The product's name, shown on the checkout page: not empty. */
  name: string;
  /** How many: a whole number, at least 1. */
  num: number;
};

/**
 * How much of a payment a refund gives back. Every part is an integer in minor units, 0 or more;
 * their sum must be greater than 0.
 */
export type RefundAmount = {
  /** The payment's currency: an active ISO 4217 code in upper case, e.g. `"USD"`. */
  priceCurrency: string;
  /** When sent, must equal `orderAmount + taxAmount + surchargeAmount + tipAmount` (absent parts count 0). */
  totalAmount?: number | undefined;
  /** Integer minor units, 0 or more. */
  orderAmount?: number | undefined;
  /** Integer minor units, 0 or more. */
  taxAmount?: number | undefined;
  /** Integer minor units, 0 or more. */
  surchargeAmount?: number | undefined;
  /** Integer minor units, 0 or more. */
  tipAmount?: number | undefined;
};

/**
 * An amount as the service reports it back, in its answers: the parts of a refund's amount, in minor
 * units, and the fields paymount does not know, kept.
 */
export interface TransactionAmount extends RefundAmount {
  [field: string]: unknown;
}
