// A verified payload to a typed event.
import { WebhookPayloadError } from '../shared/errors';
import type { PaymentEvent, PaymentEventReason, PaymentEventType } from './event';
import { eventFieldIssues, payloadIssues } from './event-checks';
import type { WebhookPayload } from './payload';

const EVENT_BY_TYPE_AND_STATUS: ReadonlyMap<string, ReadonlyMap<string, PaymentEventType>> = new Map([
  ['SALE', new Map<string, PaymentEventType>([['S', 'payment.succeeded'], ['F', 'payment.failed'], ['C', 'payment.closed']])],
  ['REFUND', new Map<string, PaymentEventType>([['S', 'refund.succeeded'], ['F', 'refund.failed']])],
]);

/**
 * `transactionType` and `transactionStatus` as paymount compares them: letter
 * case ignored. The one normalisation, used for the event's name and for its
 * dedupe identity alike, so the two never disagree on whether two are equal.
 */
export function normalizeCode(code: string): string {
  return code.toUpperCase();
}

/** The entry of `table` for `code` under normalizeCode; a code sent as normalised (the service's own, every delivery) is found without converting it. */
function entryOf<T>(table: ReadonlyMap<string, T>, code: string): T | undefined {
  return table.get(code) ?? table.get(normalizeCode(code));
}

/** SALE S/F/C and REFUND S/F have names; every other combination is `unknown`, never guessed. */
export function eventTypeOf(transactionType: string | undefined, transactionStatus: string | undefined): PaymentEventType {
  if (transactionType === undefined || transactionStatus === undefined) return 'unknown';
  const statuses = entryOf(EVENT_BY_TYPE_AND_STATUS, transactionType);
  return (statuses && entryOf(statuses, transactionStatus)) ?? 'unknown';
}

function reasonOf(body: WebhookPayload): Partial<PaymentEventReason> | undefined {
  if (body.reason !== undefined) return body.reason;
  if (body.transactionResultCode === undefined && body.transactionResultMsg === undefined) return undefined;
  return { code: body.transactionResultCode, message: body.transactionResultMsg };
}

/**
 * The event: its type and origin, and the fields paymount reads, those absent
 * left out. Written out field by field: every delivery comes through here,
 * and a loop over the fields storing computed keys costs verifying a 1 KiB
 * delivery about 7,900 more instructions, 6% more (callgrind; bench: webhook-verify).
 */
function eventOf(type: PaymentEventType, body: WebhookPayload, origin: EventOrigin): Record<string, unknown> {
  const event: Record<string, unknown> = { type, deliveryId: origin.deliveryId, timestamp: origin.timestamp, payload: body };
  if (body.transactionId !== undefined) event.transactionId = body.transactionId;
  if (body.originalTransactionId !== undefined) event.originalTransactionId = body.originalTransactionId;
  if (body.transactionRequestId !== undefined) event.transactionRequestId = body.transactionRequestId;
  const sessionId = body.sessionId ?? origin.sessionId;
  if (sessionId !== undefined) event.sessionId = sessionId;
  if (body.referenceOrderId !== undefined) event.referenceOrderId = body.referenceOrderId;
  if (body.transactionType !== undefined) event.transactionType = body.transactionType;
  if (body.transactionStatus !== undefined) event.transactionStatus = body.transactionStatus;
  if (body.amount !== undefined) event.amount = body.amount;
  const reason = reasonOf(body);
  if (reason !== undefined) event.reason = reason;
  return event;
}

/** What the delivery (or reconciliation) knows besides the body. */
export interface EventOrigin {
  deliveryId: string;
  timestamp: number;
  /** The hosted session the event's attempt belongs to, when the payload does not say (a transaction query does not). */
  sessionId?: string;
}

/**
 * Builds the event from an already verified and parsed body. A body that
 * names an event (SALE S, REFUND F, ...) but lacks a field that event always
 * has is refused with a WebhookPayloadError naming the field: no handler is
 * given an event it would have to second-guess.
 */
export function normalizeEvent(payload: unknown, origin: EventOrigin): PaymentEvent {
  const bodyIssues = payloadIssues(payload);
  if (bodyIssues.length > 0) throw new WebhookPayloadError('a JSON object of the expected shape', bodyIssues);
  // Checked by payloadIssues, webhookPayloadSchema's rules: the schema's output.
  const body = payload as WebhookPayload;
  const type = eventTypeOf(body.transactionType, body.transactionStatus);
  const event = eventOf(type, body, origin);
  const eventIssues = type === 'unknown' ? [] : eventFieldIssues(type, event);
  if (eventIssues.length > 0) throw new WebhookPayloadError(`a complete ${type} event`, eventIssues);
  // eventFieldIssues checked every field its event type requires.
  return event as unknown as PaymentEvent;
}
