import { z } from 'zod';
import { WebhookVerificationError } from '../errors';

export const PAYMENT_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.closed',
  'refund.succeeded',
  'refund.failed',
  'unknown',
] as const;

export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export interface PaymentEventAmount {
  /** A refund's total, when the service sends it. */
  totalAmount?: number;
  orderAmount?: number;
  taxAmount?: number;
  surchargeAmount?: number;
  tipAmount?: number;
  priceCurrency?: string;
  [field: string]: unknown;
}

/** A verified webhook delivery, normalised. `payload` is the parsed body with every field the service sent. */
export interface PaymentEvent {
  type: PaymentEventType;
  /**
   * `X-Client-Request-Id` of the delivery (a redelivery of the same event may
   * carry a new one); `reconciliation:<transactionRequestId>` for an event
   * `handlers.reconcile()` found by asking the service.
   */
  deliveryId: string;
  /** `X-Timestamp` of the delivery, or when reconciliation found it, in epoch milliseconds. */
  timestamp: number;
  /** The transaction this event is about: for `refund.*`, the refund's own id, not the payment's. */
  transactionId?: string;
  /** For `refund.*`: the transactionId of the refunded payment. */
  originalTransactionId?: string;
  /** The payment attempt this event is about: the order's current one, or an earlier one (compare before acting on the order). */
  transactionRequestId?: string;
  /** For a hosted checkout, the session this event is about (e.g. a `payment.closed` of an abandoned session). */
  sessionId?: string;
  referenceOrderId?: string;
  transactionType?: string;
  transactionStatus?: string;
  amount?: PaymentEventAmount;
  payload: Record<string, unknown>;
}

const optionalText = z.string().optional();

/** Only the fields paymount reads are typed; everything else passes through untouched. */
const webhookPayloadSchema = z.looseObject({
  transactionId: optionalText,
  originalTransactionId: optionalText,
  transactionRequestId: optionalText,
  sessionId: optionalText,
  referenceOrderId: optionalText,
  transactionType: optionalText,
  transactionStatus: optionalText,
  amount: z
    .looseObject({
      totalAmount: z.number().optional(),
      orderAmount: z.number().optional(),
      taxAmount: z.number().optional(),
      surchargeAmount: z.number().optional(),
      tipAmount: z.number().optional(),
      priceCurrency: optionalText,
    })
    .optional(),
});

const EVENT_BY_TYPE_AND_STATUS: Readonly<Record<string, Readonly<Record<string, PaymentEventType>>>> = {
  SALE: { S: 'payment.succeeded', F: 'payment.failed', C: 'payment.closed' },
  REFUND: { S: 'refund.succeeded', F: 'refund.failed' },
};

/**
 * `transactionType` and `transactionStatus` as paymount compares them: letter
 * case ignored. The one normalisation, used for the event's name and for its
 * dedupe identity alike, so the two never disagree on whether two are equal.
 */
export function normalizeCode(code: string): string {
  return code.toUpperCase();
}

/** SALE S/F/C and REFUND S/F have names; every other combination is `unknown`, never guessed. */
export function eventTypeOf(transactionType: string | undefined, transactionStatus: string | undefined): PaymentEventType {
  if (transactionType === undefined || transactionStatus === undefined) return 'unknown';
  return EVENT_BY_TYPE_AND_STATUS[normalizeCode(transactionType)]?.[normalizeCode(transactionStatus)] ?? 'unknown';
}

/** Builds the event from an already verified and parsed body. */
export function normalizeEvent(payload: unknown, delivery: { deliveryId: string; timestamp: number }): PaymentEvent {
  const parsed = webhookPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
    throw new WebhookVerificationError(
      'invalid_payload',
      `The webhook payload is not a JSON object of the expected shape (check: ${where}).`,
    );
  }
  const body = parsed.data;
  const event: PaymentEvent = {
    type: eventTypeOf(body.transactionType, body.transactionStatus),
    deliveryId: delivery.deliveryId,
    timestamp: delivery.timestamp,
    payload: payload as Record<string, unknown>,
  };
  if (body.transactionId !== undefined) event.transactionId = body.transactionId;
  if (body.originalTransactionId !== undefined) event.originalTransactionId = body.originalTransactionId;
  if (body.transactionRequestId !== undefined) event.transactionRequestId = body.transactionRequestId;
  if (body.sessionId !== undefined) event.sessionId = body.sessionId;
  if (body.referenceOrderId !== undefined) event.referenceOrderId = body.referenceOrderId;
  if (body.transactionType !== undefined) event.transactionType = body.transactionType;
  if (body.transactionStatus !== undefined) event.transactionStatus = body.transactionStatus;
  if (body.amount !== undefined) event.amount = body.amount;
  return event;
}
