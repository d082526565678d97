// The client's interface and result types; when a session's checkoutUrl expires (zod-free, as the root entry's declarations are).
import type { CheckoutSessionRequest, DirectPaymentRequest, ExpireCheckoutSessionRequest, PaymentStatus, RefundRequest, ResponseEnvelope, TerminalSaleRequest, TransactionAmount } from '../shared/types';

type Defaulted = 'appId' | 'merchantId' | 'transactionRequestId';

/** A request body whose appId, merchantId (client defaults) and transactionRequestId (generated) may be left out. */
export type WithClientDefaults<T extends Record<Defaulted, string>> = Omit<T, Defaulted> & Partial<Pick<T, Defaulted>>;

export type CheckoutSessionInput = WithClientDefaults<CheckoutSessionRequest>;
export type DirectPaymentInput = WithClientDefaults<Omit<DirectPaymentRequest, 'paymentMethod'>>;
export type TerminalSaleInput = WithClientDefaults<TerminalSaleRequest>;

/** Exactly one of two ids naming the same transaction. */
export type OneOf<A extends string, B extends string> =
  | ({ [K in A]: string } & { [K in B]?: never })
  | ({ [K in B]: string } & { [K in A]?: never });

type AccountDefaults = { appId?: string; merchantId?: string };

/** A refund of the payment named by `originalTransactionId` or `originalTransactionRequestId`; no `amount` refunds the whole remaining balance. */
export type RefundInput = WithClientDefaults<Omit<RefundRequest, 'originalTransactionId' | 'originalTransactionRequestId'>> &
  OneOf<'originalTransactionId', 'originalTransactionRequestId'>;
/** The transaction to look up, by the service's `transactionId` or the merchant's `transactionRequestId`. */
export type TransactionLookup = OneOf<'transactionId', 'transactionRequestId'> & AccountDefaults;
export type ExpireCheckoutSessionInput = Omit<ExpireCheckoutSessionRequest, 'appId' | 'merchantId'> & AccountDefaults;

export interface CallOptions {
  /** Aborts the call; the abort reason is rethrown. */
  signal?: AbortSignal;
  /** Per-attempt time-out for this call. */
  timeoutMs?: number;
  /** Deadline for the whole call, retries included. */
  deadlineMs?: number;
  /** At most this many attempts for this call (at least 1), when fewer than the client's `retry.maxAttempts`. */
  maxAttempts?: number;
}

export interface CheckoutSession {
  checkoutUrl: string;
  expiresAt: Date;
  sessionId?: string;
  transactionRequestId: string;
  traceId: string;
  /** The response envelope as received. */
  raw: ResponseEnvelope;
}

/** Why the service ended a transaction as it did (`transactionResultCode` / `transactionResultMsg`), when it said. */
export interface TransactionResultReason {
  /** The service's reason code, e.g. `CARD_DECLINED`. */
  resultCode?: string;
  resultMessage?: string;
}

export interface PaymentResult extends TransactionResultReason {
  /** `pending` when the service reported a non-final status, or when no definitive answer came back (`outcomeUnknown`). */
  status: PaymentStatus;
  transactionStatus?: string;
  transactionId?: string;
  transactionRequestId: string;
  traceId?: string;
  raw?: ResponseEnvelope;
  /** True when the request may have been processed but no answer arrived; the webhook settles it. */
  outcomeUnknown: boolean;
}

export type DirectPaymentResult = PaymentResult;
export type TerminalSaleResult = PaymentResult;

export type { TransactionAmount };

/** The service answered the refund. */
export interface AnsweredRefund extends TransactionResultReason {
  /** From `transactionStatus`: `S` succeeded, `F` failed, `C` closed, anything else pending (the refund webhook settles it). */
  status: PaymentStatus;
  transactionStatus: string;
  /** The refund's own transaction id, not the payment's. */
  transactionId: string;
  /** The refunded payment's transaction id. */
  originalTransactionId: string;
  /** The refund's own idempotency key. */
  transactionRequestId: string;
  /** What this refund gives back. */
  amount: TransactionAmount;
  createdAt?: Date;
  completedAt?: Date;
  traceId: string;
  raw: ResponseEnvelope;
  outcomeUnknown: false;
}

/** No definitive answer came back and the request may have been carried out: never treat it as failed. */
export interface UnknownOutcome {
  status: 'pending';
  transactionRequestId: string;
  traceId?: string;
  /**
   * Settle it by calling again with the same `transactionRequestId` (the
   * service answers a repeat with the first result), by `getTransaction`, or
   * by the webhook.
   */
  outcomeUnknown: true;
}

export type RefundResult = AnsweredRefund | UnknownOutcome;

/** A transaction as the query reports it. */
export interface TransactionDetails extends TransactionResultReason {
  status: PaymentStatus;
  transactionStatus: string;
  /** `SALE`, `REFUND`, ... */
  transactionType: string;
  transactionId: string;
  transactionRequestId: string;
  /** The merchant's order; the service reports it for sales (a refund may have none). */
  referenceOrderId?: string;
  amount: TransactionAmount;
  /** How later transactions changed this one: `PART_REFUNDED`, `REFUNDED`, ... */
  relatedTransactionStatus?: string;
  createdAt?: Date;
  completedAt?: Date;
  traceId: string;
  raw: ResponseEnvelope;
}

export interface ExpiredCheckoutSession {
  sessionId: string;
  /** `EXPIRED` */
  sessionStatus: string;
  /** When the session stopped being payable (the time of the answer when the service did not say). */
  expiredAt: Date;
  transactionId?: string;
  /** The transactionRequestId the session was created with. */
  transactionRequestId?: string;
  traceId: string;
  raw: ResponseEnvelope;
}

export interface PaymentClient {
  readonly appId: string;
  readonly merchantId: string;
  readonly baseUrl: string;
  /** The whole-call deadline of a payment call, retries included: the payment routes size their order lock and late-arrival window from it. */
  readonly deadlineMs: number;
  createCheckoutSession(input: CheckoutSessionInput, callOptions?: CallOptions): Promise<CheckoutSession>;
  directPayment(input: DirectPaymentInput, callOptions?: CallOptions): Promise<DirectPaymentResult>;
  terminalSale(input: TerminalSaleInput, callOptions?: CallOptions): Promise<TerminalSaleResult>;
  /**
   * Refunds a payment in full or in part. Each attempt carries the same
   * `transactionRequestId`, so a retry never refunds twice; an outcome left in
   * doubt resolves `{ status: 'pending', outcomeUnknown: true }`.
   */
  refund(input: RefundInput, callOptions?: CallOptions): Promise<RefundResult>;
  /** Looks a transaction up (GET, retried on every transient failure). An unknown one throws PaymentApiError. */
  getTransaction(lookup: TransactionLookup, callOptions?: CallOptions): Promise<TransactionDetails>;
  /** Ends an open hosted checkout session at once: its page stops taking payments. */
  expireCheckoutSession(input: ExpireCheckoutSessionInput, callOptions?: CallOptions): Promise<ExpiredCheckoutSession>;
  /** Closes the client's connection pool (not a dispatcher passed in). Later calls are refused. */
  close(): Promise<void>;
}

/** True once the session's checkoutUrl must no longer be used: create a new session instead. */
export function isSessionExpired(session: { expiresAt: Date }, now: number | Date = Date.now()): boolean {
  const at = typeof now === 'number' ? now : now.getTime();
  return at >= session.expiresAt.getTime();
}
