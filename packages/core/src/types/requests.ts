// The request bodies the client sends, field for field as the service takes them
// (docs/service-contract.md#fields-and-rules). Zod-free, so that the published declarations load in
// any TypeScript setup; test/public-types.test-d.ts holds each request schema to its type.
import type { CheckoutAddress } from './address';
import type { Amount, ProductLineItem, RefundAmount } from './amount';

/** The account and call identifiers every request body carries. */
type AccountIds = {
  /** 1–32 characters (the client fills it from its options). */
  appId: string;
  /** 1–32 characters (the client fills it from its options). */
  merchantId: string;
};

/** What the hosted checkout page and a direct wallet payment have in common. */
type OrderPayment = AccountIds & {
  /** The call's idempotency key: 1–32 of `A-Z a-z 0-9 _ -` (the client generates one when absent). */
  transactionRequestId: string;
  /** The merchant's order: 6–32 of `A-Z a-z 0-9 _ - | *`. */
  referenceOrderId: string;
  /** Integers in minor units; the payable total must be greater than 0. */
  amount: Amount;
  /** 1–128 characters, shown to the shopper. */
  description: string;
  /** At least one item when sent; `amount × num` over the items must equal `amount.orderAmount`. */
  productList?: ProductLineItem[] | undefined;
  /** Where the service posts the result: an absolute URL of at most 200 characters, public HTTPS outside local development. Without it no webhook is sent. */
  notifyUrl?: string | undefined;
  /** Where the shopper returns: an absolute URL of at most 256 characters, public HTTPS outside local development. */
  merchantReturnUrl?: string | undefined;
};

/** The create-session body (POST /v1/checkout/session). Unknown fields are refused. */
export type CheckoutSessionRequest = OrderPayment & {
  /** Ask the shopper for a billing address on the hosted page. */
  collectBillingAddress?: boolean | undefined;
  /** Ask the shopper for a shipping address on the hosted page. */
  collectShippingAddress?: boolean | undefined;
};

/** The direct wallet payment body (docs/service-contract.md#direct-payment). Unknown fields are refused. */
export type DirectPaymentRequest = OrderPayment & {
  /** Always `"WALLET_PAY"`. */
  paymentMethod: 'WALLET_PAY';
  /** The wallet token string (`paymentMethodData.tokenizationData.token`), forwarded untouched: 1–65536 characters. */
  cardEncryptedData: string;
  /** An email address of at most 254 characters. */
  customerEmail?: string | undefined;
  /** 1–128 characters. */
  customerName?: string | undefined;
  billingAddress?: CheckoutAddress | undefined;
  shippingAddress?: CheckoutAddress | undefined;
};

/** The terminal sale body (docs/service-contract.md#terminal-sale). Fields beyond these pass through unchanged. */
export interface TerminalSaleRequest extends AccountIds {
  /** The call's idempotency key: 1–32 of `A-Z a-z 0-9 _ -` (the client generates one when absent). */
  transactionRequestId: string;
  /** An integer in minor units, greater than 0. */
  amount: number;
  /** An active ISO 4217 currency code in upper case, e.g. `"USD"`. */
  priceCurrency: string;
  [field: string]: unknown;
}

/**
 * The refund body (POST /v1/checkout/refund), the vendor's OnlineRefundRequest. The payment is named by
 * exactly one of `originalTransactionId` and `originalTransactionRequestId`. Unknown fields are refused.
 */
export type RefundRequest = AccountIds & {
  /** The refund's own idempotency key: 1–64 of `A-Z a-z 0-9 _ -`. */
  transactionRequestId: string;
  /** The service's id of the payment to refund: 1–64 characters. */
  originalTransactionId?: string | undefined;
  /** The merchant's `transactionRequestId` of the payment to refund: 1–64 of `A-Z a-z 0-9 _ -`. */
  originalTransactionRequestId?: string | undefined;
  /** What to give back; left out, the whole remaining balance is refunded. */
  amount?: RefundAmount | undefined;
  /** 1–128 characters. */
  description?: string | undefined;
  /** Merchant data carried with the refund: at most 512 characters. */
  attach?: string | undefined;
  /** Where the service posts the refund's result: an absolute URL of at most 200 characters, public HTTPS outside local development. */
  notifyUrl?: string | undefined;
};

/** The query of GET /v1/transaction/query: the transaction named by exactly one of its two ids. */
export type TransactionQuery = AccountIds & {
  /** The service's transaction id: 1–64 characters. */
  transactionId?: string | undefined;
  /** The merchant's `transactionRequestId`: 1–64 of `A-Z a-z 0-9 _ -`. */
  transactionRequestId?: string | undefined;
};

/** The expire-session body (POST /v1/checkout/expire-session), the vendor's ExpireCheckoutSessionRequest. */
export type ExpireCheckoutSessionRequest = AccountIds & {
  /** The `sessionId` create-session answered: 1–64 characters. */
  sessionId: string;
  /** Why the session is expired: 1–256 characters. */
  reason?: string | undefined;
};
