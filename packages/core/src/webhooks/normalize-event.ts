import { safeParse, validate, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import { WebhookPayloadError } from '../errors';
import { toValidationIssue } from '../validation';
import type { PaymentEvent, PaymentEventReason, PaymentEventType } from './event';
import { EVENT_FIELD_SCHEMAS } from './event-fields';
import { webhookPayloadSchema, type WebhookPayload } from './payload';

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

function reasonOf(body: WebhookPayload): Partial<PaymentEventReason> | undefined {
  if (body.reason !== undefined) return body.reason;
  if (body.transactionResultCode === undefined && body.transactionResultMsg === undefined) return undefined;
  return { code: body.transactionResultCode, message: body.transactionResultMsg };
}

/**
 * The event: its type and origin, and the fields paymount reads, those absent
 * left out. Written out field by field: every delivery comes through here,
 * and a loop or helper storing computed keys costs 20 to 60 times as much
 * (bench: webhook-verify).
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

/**
 * Why `value` failed a schema. Every delivery is only validated (the compiled
 * check, no copy made: the event reads the payload's own values); the issues
 * are worked out on a refusal alone.
 */
function issuesOf(schema: $ZodType, value: unknown): readonly $ZodIssue[] {
  return safeParse(schema, value).error?.issues ?? [];
}

function payloadError(issues: readonly $ZodIssue[], input: unknown, what: string): WebhookPayloadError {
  return new WebhookPayloadError(what, issues.map((issue) => toValidationIssue(issue, input)));
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
  if (!validate(webhookPayloadSchema, payload)) throw payloadError(issuesOf(webhookPayloadSchema, payload), payload, 'a JSON object of the expected shape');
  const type = eventTypeOf(payload.transactionType, payload.transactionStatus);
  const event = eventOf(type, payload, origin);
  if (type !== 'unknown') {
    const fields = EVENT_FIELD_SCHEMAS[type];
    if (!validate(fields, event)) throw payloadError(issuesOf(fields, event), event, `a complete ${type} event`);
  }
  // The schema of `type` checked every field its event type requires.
  return event as unknown as PaymentEvent;
}
