/**
 * A billing or shipping address of a direct payment (the vendor's CheckoutAddress). Every part is
 * optional; a part that is sent must not be empty, since the service uses it for address verification.
 */
export type CheckoutAddress = {
  /** 1–128 characters. */
  line1?: string | undefined;
  /** 1–128 characters. */
  line2?: string | undefined;
  /** 1–64 characters. */
  city?: string | undefined;
  /** 1–64 characters. */
  state?: string | undefined;
  /** 1–16 characters: letters, digits, spaces and `-`, starting with a letter or digit. */
  postalCode?: string | undefined;
  /** An ISO 3166-1 alpha-2 country code in upper case, e.g. `"US"`. */
  countryCode?: string | undefined;
};

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

// The request bodies the client sends, field for field as the service takes them
// (docs/service-contract.md#fields-and-rules). Zod-free, so that the published declarations load in
// any TypeScript setup; test/public-types.test-d.ts holds each request schema to its type.
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

/**
 * The envelope every answer of the service carries. `data` is there on success; an error envelope may
 * lack it, and still carries its `code` and `traceId`. Fields paymount does not know are kept.
 */
export type ResponseEnvelope = {
  /** The service's result code. */
  code: string;
  msg?: string | undefined;
  /** The service's id of the call, to quote to its support. */
  traceId: string;
  data?: Record<string, unknown> | null | undefined;
  [field: string]: unknown;
};

/** What `buildWalletPaymentRequest` needs to write the browser wallet's payment data request. */
export type WalletPaymentRequestInput = {
  /** The server-side order's amount, in integer minor units. */
  amount: Amount;
  /** The gateway identifier the service was assigned by the wallet provider: not empty. */
  gatewayId: string;
  /** 1–32 characters. */
  merchantId: string;
  /** Upper-case wallet network codes such as `"VISA"`, at least one. Default: AMEX, DISCOVER, JCB, MASTERCARD, VISA. */
  allowedCardNetworks?: string[] | undefined;
  /** Shown by the wallet: not empty. */
  merchantName?: string | undefined;
  /** An ISO 3166-1 alpha-2 code in upper case, e.g. `"US"`. */
  countryCode?: string | undefined;
};

/** The merchant's own order, looked up on the server: the only source of the amount charged. */
export interface MerchantOrder {
  /** The service's `referenceOrderId`: 6 to 32 characters of `[A-Za-z0-9_-|*]`. */
  referenceOrderId: string;
  /** Integers in minor units. */
  amount: Amount;
  description: string;
  productList?: ProductLineItem[];
  /** Overrides the `merchantReturnUrl` option for this order. */
  merchantReturnUrl?: string;
  /**
   * `false` when the order takes no payment (already paid, cancelled,
   * refunded): the payment routes answer 409 `ORDER_NOT_PAYABLE` and send
   * nothing; GET /status still answers for it. Default true.
   */
  payable?: boolean;
}

export type PaymentStatus = 'succeeded' | 'failed' | 'closed' | 'pending';

/**
 * `S`, `F` and `C` are final: `C` is a transaction closed without money
 * moving (a hosted session cancelled or expired unpaid). Any other value (`I`,
 * `P`, or one not seen yet) is treated as pending: the webhook or a query
 * settles it, and calling an unknown state "failed" could make a merchant
 * cancel a paid order.
 */
export function paymentStatusOf(transactionStatus: string | undefined): PaymentStatus {
  if (transactionStatus === 'S') return 'succeeded';
  if (transactionStatus === 'F') return 'failed';
  if (transactionStatus === 'C') return 'closed';
  return 'pending';
}

// An order's payment attempt as the routes and every OrderAttemptStore keep it. Zod-free, so that the
// published declarations name no zod; test/public-types.test-d.ts holds orderAttemptSchema to OrderAttempt.

/**
 * Where an attempt stands. `open`: a hosted session the shopper may still pay.
 * `pending`: a call went out (or may have) and its outcome is not known yet.
 * `succeeded`, `failed`, `closed` (a session cancelled or expired unpaid) are
 * the service's final `S`, `F`, `C`.
 */
export const ORDER_ATTEMPT_STATES = ['open', 'pending', 'succeeded', 'failed', 'closed'] as const;
export type OrderAttemptState = (typeof ORDER_ATTEMPT_STATES)[number];

/** `hosted`: a checkout session (POST /checkout); `wallet`: a direct wallet payment (POST /wallet/pay). */
export type OrderAttemptKind = 'hosted' | 'wallet';

/**
 * An order's current payment attempt, as the routes keep it per
 * `referenceOrderId`. The `transactionRequestId` is chosen before the call
 * goes out, so a process that dies mid-call leaves an attempt the next
 * request can ask the service about.
 */
export interface OrderAttempt {
  referenceOrderId: string;
  kind: OrderAttemptKind;
  transactionRequestId: string;
  /** Which of the order's derived transactionRequestIds this is (see RequestIdSource); absent on attempts recorded before ids were derived. */
  sequence?: number;
  state: OrderAttemptState;
  /** The payable total (minor units) and currency the attempt was opened for: a session of another amount is never handed out again. */
  amount?: number;
  currency?: string;
  /**
   * Until when (epoch ms) the service may still receive this attempt's
   * request: the call's deadline plus the service's timestamp window. Until
   * then, "the service knows no such transaction" proves nothing: the request
   * may be in flight, so the order's next payment goes out under this same id.
   */
  inFlightUntil?: number;
  /** Hosted attempts, once the session exists. */
  sessionId?: string;
  checkoutUrl?: string;
  /** When the hosted session stops being payable, epoch ms. */
  expiresAt?: number;
  /** The service's transaction, once known. */
  transactionId?: string;
  /**
   * The final state whose event the merchant's handlers have run for (brought
   * by a webhook or by reconciliation). Until it equals `state`, the attempt
   * is unsettled: reconciliation still has to hand its outcome on.
   */
  handledState?: FinalOrderAttemptState;
  /** Last change, epoch ms. */
  updatedAt: number;
}

export type FinalOrderAttemptState = 'succeeded' | 'failed' | 'closed';

/** An outcome (or a still-pending check) to record on an attempt. */
export interface OrderAttemptUpdate {
  state: OrderAttemptState;
  transactionId?: string;
  /** The merchant's handlers ran for this (final) state's event. */
  handled?: boolean;
  updatedAt: number;
}

// What `paymentRoutes.cancelCheckout()` answers, apart from orders/order-guard.ts, whose declarations carry its schema.

/** What `paymentRoutes.cancelCheckout(referenceOrderId)` did. */
export type CancelCheckoutResult =
  /** The order's open hosted session was expired now: its page says it expired, and a new checkout may start. */
  | { outcome: 'cancelled'; sessionId: string }
  /** The order is paid (its session was paid, before or while it was being cancelled): refund it instead. */
  | { outcome: 'already-paid'; transactionId?: string }
  /** The order has no open hosted session: no checkout yet, a wallet payment, or a session that already ended. */
  | { outcome: 'no-open-checkout' }
  /**
   * A checkout whose answer was lost may have opened a session that cannot be
   * named to the service (an attempt recorded before attempts kept their
   * amount): it ends unpaid when its 30 minutes are up.
   */
  | { outcome: 'may-be-open'; transactionRequestId: string };

// What `paymentRoutes.reconcile()` takes and answers, apart from orders/reconcile.ts, whose declarations carry its options schema.

export interface ReconcileOptions {
  /** Only attempts unchanged for this long: the webhook usually settles them first. Default 60 000 (1 minute). */
  olderThanMs?: number;
  /** Most attempts looked at in one run, oldest first. Default 100. */
  limit?: number;
}

/** What one run did. */
export interface ReconcileSummary {
  /** Attempts looked at (each is then counted in one of the three below). */
  checked: number;
  /** Attempts whose final outcome the handlers have now seen (handled now, or by a webhook before). */
  settled: number;
  /** Attempts the service has not finished with, or whose order a payment or webhook is busy with: the next run looks again. */
  stillPending: number;
  /** Attempts the service could not be asked about, or whose handler threw: the next run looks again. */
  errors: number;
}

/**
 * Where spans and metrics go. Typed structurally so that core's declarations
 * need no `@opentelemetry/api` import: a TracerProvider / MeterProvider of the
 * OpenTelemetry SDK fits.
 */
export interface PaymentTelemetryOptions {
  /**
   * The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`).
   * Needed off Node (Bun, Deno, workerd, the edge runtime), where paymount does
   * not load it by name; on Node it is loaded when installed.
   */
  api?: { trace: object; metrics: object; context: object };
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what the Node SDK registers). */
  tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /** Default: the global meter provider at the time the client or routes are created. */
  meterProvider?: { getMeter(name: string, version?: string): unknown };
}

/** `false` turns telemetry off: no span, no metric, and `@opentelemetry/api` is not even loaded. */
export type PaymentTelemetry = PaymentTelemetryOptions | false;
