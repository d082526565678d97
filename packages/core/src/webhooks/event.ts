// The event types and the header source.
import type { TransactionAmount } from '../shared/types';

/**
 * Header lookup that works for Node's lower-cased header record, a record with
 * any casing (hand-built in tests) and a fetch `Headers` object alike.
 */
export type HeaderSource =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** `name` in lower case, as Node gives every header name, so a Node record is read without lower-casing anything. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const direct = record[name];
  const value =
    direct !== undefined
      ? direct
      : Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  // A repeated header is ambiguous for a signature or an id: only the first counts.
  return Array.isArray(value) ? (value[0] as string | undefined) : (value as string | undefined);
}

export const PAYMENT_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.closed',
  'refund.succeeded',
  'refund.failed',
  'unknown',
] as const;

export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/**
 * An amount as a webhook reports it: the service's reported amount
 * (TransactionAmount), each part and the currency present only when sent.
 * payload.ts has the compiler hold eventAmountSchema's output to it.
 */
export type PaymentEventAmount = Partial<TransactionAmount>;

/**
 * Why a payment failed, a session closed or a refund failed, in the service's
 * words: its `reason` object, or its `transactionResultCode` and
 * `transactionResultMsg` (refunds, and the transaction query), whichever it sent.
 */
export interface PaymentEventReason {
  code: string;
  message: string;
}

interface DeliveryFields {
  /**
   * `X-Client-Request-Id` of the delivery (a redelivery of the same event may
   * carry a new one); `reconciliation:<transactionRequestId>` for an event
   * `paymentRoutes.reconcile()` found by asking the service.
   */
  deliveryId: string;
  /** `X-Timestamp` of the delivery, or when reconciliation found it, in epoch milliseconds. */
  timestamp: number;
  /** The parsed body, with every field the service sent (the query's answer, for reconciliation). */
  payload: Record<string, unknown>;
}

/** What every named event carries: a delivery lacking one of these is refused, never handed on half-filled. */
interface TransactionEventFields extends DeliveryFields {
  /** The transaction this event is about: for `refund.*`, the refund's own id, not the payment's. */
  transactionId: string;
  /** The attempt this event is about: the order's current one, or an earlier one (compare before acting on the order). */
  transactionRequestId: string;
  /** As the service spelt it (`SALE`, `REFUND`); the event's `type` is read from it and the status, letter case ignored. */
  transactionType: string;
  transactionStatus: string;
  amount: PaymentEventAmount;
}

/**
 * How a payment event stands to the attempts the payment routes made for its
 * order. Only on events the routes hand to handlers (webhooks and
 * reconciliation), not on what `verifyWebhook` returns by itself.
 */
export interface PaymentEventAttempt {
  /**
   * Its `transactionRequestId` is one the routes derived for its
   * `referenceOrderId`: a payment this app made. `false` for a payment made
   * outside it (another environment sharing the webhook secret, a script, a
   * payment naming someone else's order id): never mark the order paid on it.
   */
  issued: boolean;
  /**
   * Whether the event's payable total and currency are the ones the routes
   * made that attempt for; undefined when it is not the order's recorded
   * attempt (an earlier one, or the record is gone). Compare with your order
   * as well: its amount may have changed since.
   */
  amountMatches?: boolean;
}

/** A payment is always of an order: the service requires `referenceOrderId` on every checkout and direct payment. */
interface PaymentEventFields extends TransactionEventFields {
  referenceOrderId: string;
  /** Set by the payment routes: whether they made this payment, and for this amount. */
  attempt?: PaymentEventAttempt;
}

/**
 * A refund's `transactionId` and `transactionRequestId` are its own; the
 * refunded payment is `originalTransactionId`.
 */
interface RefundEventFields extends TransactionEventFields {
  /** The transactionId of the refunded payment. */
  originalTransactionId: string;
  /**
   * The refunded payment's order. Absent when that payment had none: the
   * service refunds terminal sales too, which carry no referenceOrderId (find
   * the order by `originalTransactionId` then).
   */
  referenceOrderId?: string;
}

export interface PaymentSucceededEvent extends PaymentEventFields {
  type: 'payment.succeeded';
  /** The hosted checkout session paid; absent for a direct wallet payment. */
  sessionId?: string;
}

export interface PaymentFailedEvent extends PaymentEventFields {
  type: 'payment.failed';
  /** The hosted checkout session whose payment failed; absent for a direct wallet payment. */
  sessionId?: string;
  reason: PaymentEventReason;
}

/** A hosted checkout session cancelled or expired unpaid: nothing was charged. */
export interface PaymentClosedEvent extends PaymentEventFields {
  type: 'payment.closed';
  /** The session closed; `transactionRequestId` is the create-session attempt it belonged to. */
  sessionId: string;
  reason: PaymentEventReason;
}

export interface RefundSucceededEvent extends RefundEventFields {
  type: 'refund.succeeded';
}

export interface RefundFailedEvent extends RefundEventFields {
  type: 'refund.failed';
  reason: PaymentEventReason;
}

/** A transaction type and status paymount has no name for: nothing is promised beyond the payload. */
export interface UnknownPaymentEvent extends DeliveryFields {
  type: 'unknown';
  transactionId?: string;
  originalTransactionId?: string;
  transactionRequestId?: string;
  sessionId?: string;
  referenceOrderId?: string;
  transactionType?: string;
  transactionStatus?: string;
  amount?: PaymentEventAmount;
  reason?: PaymentEventReason;
}

/** Each event name with the event it delivers. */
export interface PaymentEventMap {
  'payment.succeeded': PaymentSucceededEvent;
  'payment.failed': PaymentFailedEvent;
  'payment.closed': PaymentClosedEvent;
  'refund.succeeded': RefundSucceededEvent;
  'refund.failed': RefundFailedEvent;
  unknown: UnknownPaymentEvent;
}

/** A verified webhook delivery (or reconciled outcome), normalised: narrow it on `type`. */
export type PaymentEvent = PaymentEventMap[PaymentEventType];
