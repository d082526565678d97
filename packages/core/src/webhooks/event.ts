import { z } from 'zod';
import { WebhookPayloadError } from '../errors';
import { toValidationIssues } from '../validation';
import { isPlainObject } from '../plain-object';
import { REPORTED_AMOUNT_PARTS } from '../schemas/amount';

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
   * `handlers.reconcile()` found by asking the service.
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

const optionalText = z.string().optional();

const amountSchema = z.looseObject({
  totalAmount: z.number().optional(),
  orderAmount: z.number().optional(),
  taxAmount: z.number().optional(),
  surchargeAmount: z.number().optional(),
  tipAmount: z.number().optional(),
  priceCurrency: optionalText,
});

/** Only the fields paymount reads are typed; everything else passes through untouched. */
export const webhookPayloadSchema = z.looseObject({
  transactionId: optionalText,
  originalTransactionId: optionalText,
  transactionRequestId: optionalText,
  sessionId: optionalText,
  referenceOrderId: optionalText,
  transactionType: optionalText,
  transactionStatus: optionalText,
  amount: amountSchema.optional(),
  reason: z.looseObject({ code: optionalText, message: optionalText }).optional(),
  transactionResultCode: optionalText,
  transactionResultMsg: optionalText,
});

type WebhookPayload = z.output<typeof webhookPayloadSchema>;

const PAYLOAD_TEXT_FIELDS = [
  'transactionId',
  'originalTransactionId',
  'transactionRequestId',
  'sessionId',
  'referenceOrderId',
  'transactionType',
  'transactionStatus',
  'transactionResultCode',
  'transactionResultMsg',
] as const;

const optionally = (value: unknown, type: 'string' | 'number') => value === undefined || typeof value === type;

/**
 * What webhookPayloadSchema accepts, checked by hand: every delivery goes
 * through here, and a yes needs neither zod nor a copy of the payload. A no
 * runs the schema, which stays the rule and words the issues
 * (webhook-event.test.ts holds the two to agreeing).
 */
export function isWebhookPayload(payload: unknown): payload is WebhookPayload {
  if (!isPlainObject(payload)) return false;
  const { amount, reason } = payload;
  for (const name of PAYLOAD_TEXT_FIELDS) if (!optionally(payload[name], 'string')) return false;
  return (
    (amount === undefined ||
      (isPlainObject(amount) && optionally(amount.priceCurrency, 'string') && REPORTED_AMOUNT_PARTS.every((name) => optionally(amount[name], 'number')))) &&
    (reason === undefined || (isPlainObject(reason) && optionally(reason.code, 'string') && optionally(reason.message, 'string')))
  );
}

function parsePayload(payload: unknown): WebhookPayload {
  if (isWebhookPayload(payload)) return payload;
  const parsed = webhookPayloadSchema.safeParse(payload);
  if (!parsed.success) throw payloadError(parsed.error.issues, payload, 'a JSON object of the expected shape');
  return parsed.data;
}

const required = (issue: { input?: unknown }, expected: string) => (issue.input === undefined ? 'is required' : `must be ${expected}`);
const text = z.string({ error: (issue) => required(issue, 'a string') });
const id = text.min(1, 'must not be empty');
const reasonSchema = z.object(
  { code: id, message: text },
  { error: 'must be sent, as a reason object or as transactionResultCode and transactionResultMsg' },
);
type NamedEventType = Exclude<PaymentEventType, 'unknown'>;

/** The fields an event of one kind cannot do without: what the service sends for every event of the kind. */
interface EventFieldRule {
  /** Non-empty strings, always sent. */
  ids: readonly string[];
  /** Non-empty strings when sent. */
  optionalIds: readonly string[];
  /** A failure says why: `reason` (or the result code and message it was read from). */
  reason: boolean;
}

const TRANSACTION_IDS = ['transactionId', 'transactionRequestId', 'transactionType', 'transactionStatus'];
const PAYMENT_IDS = [...TRANSACTION_IDS, 'referenceOrderId'];
const REFUND_IDS = [...TRANSACTION_IDS, 'originalTransactionId'];

const EVENT_FIELD_RULES: Readonly<Record<NamedEventType, EventFieldRule>> = {
  'payment.succeeded': { ids: PAYMENT_IDS, optionalIds: ['sessionId'], reason: false },
  'payment.failed': { ids: PAYMENT_IDS, optionalIds: ['sessionId'], reason: true },
  'payment.closed': { ids: [...PAYMENT_IDS, 'sessionId'], optionalIds: [], reason: true },
  'refund.succeeded': { ids: REFUND_IDS, optionalIds: ['referenceOrderId'], reason: false },
  'refund.failed': { ids: REFUND_IDS, optionalIds: ['referenceOrderId'], reason: true },
};

const amountRecord = z.record(z.string(), z.unknown(), { error: (issue) => required(issue, 'an object') });

function schemaOf(rule: EventFieldRule): z.ZodObject {
  return z.object({
    ...Object.fromEntries(rule.ids.map((name) => [name, id])),
    ...Object.fromEntries(rule.optionalIds.map((name) => [name, id.optional()])),
    amount: amountRecord,
    ...(rule.reason ? { reason: reasonSchema } : {}),
  });
}

/** Each rule as a schema: the rule paymount states, and the words of its issues. */
const EVENT_FIELD_SCHEMAS: Readonly<Record<NamedEventType, z.ZodObject>> = {
  'payment.succeeded': schemaOf(EVENT_FIELD_RULES['payment.succeeded']),
  'payment.failed': schemaOf(EVENT_FIELD_RULES['payment.failed']),
  'payment.closed': schemaOf(EVENT_FIELD_RULES['payment.closed']),
  'refund.succeeded': schemaOf(EVENT_FIELD_RULES['refund.succeeded']),
  'refund.failed': schemaOf(EVENT_FIELD_RULES['refund.failed']),
};

const isId = (value: unknown) => typeof value === 'string' && value.length > 0;

/**
 * What EVENT_FIELD_SCHEMAS accepts, checked by hand: every named event goes
 * through here, and a yes needs no zod parse (a no runs the schema for its
 * issues; webhook-event.test.ts holds the two to agreeing).
 */
export function hasEventFields(type: NamedEventType, fields: Readonly<Record<string, unknown>>): boolean {
  const rule = EVENT_FIELD_RULES[type];
  const { amount, reason } = fields;
  return (
    rule.ids.every((name) => isId(fields[name])) &&
    rule.optionalIds.every((name) => fields[name] === undefined || isId(fields[name])) &&
    isPlainObject(amount) &&
    (!rule.reason || (isPlainObject(reason) && isId(reason.code) && typeof reason.message === 'string'))
  );
}

/** The schema of a named event's fields (for tests holding hasEventFields to it). */
export function eventFieldSchema(type: NamedEventType): z.ZodObject {
  return EVENT_FIELD_SCHEMAS[type];
}

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
  if (body.reason !== undefined) return { ...body.reason };
  if (body.transactionResultCode === undefined && body.transactionResultMsg === undefined) return undefined;
  return { code: body.transactionResultCode, message: body.transactionResultMsg };
}

/**
 * The event: its type and origin, and the fields paymount reads, those absent
 * left out. Written out field by field: every delivery comes through here,
 * and a loop or helper storing computed keys costs 20 to 60 times as much
 * (bench: webhook-verify).
 */
function eventOf(type: PaymentEventType, body: WebhookPayload, payload: unknown, origin: EventOrigin): Record<string, unknown> {
  const event: Record<string, unknown> = { type, deliveryId: origin.deliveryId, timestamp: origin.timestamp, payload };
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

function payloadError(issues: readonly z.core.$ZodIssue[], input: unknown, what: string): WebhookPayloadError {
  return new WebhookPayloadError(what, toValidationIssues(issues, input));
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
  const body = parsePayload(payload);
  const type = eventTypeOf(body.transactionType, body.transactionStatus);
  const event = eventOf(type, body, payload, origin);
  if (type !== 'unknown' && !hasEventFields(type, event)) {
    const checked = EVENT_FIELD_SCHEMAS[type].safeParse(event);
    if (!checked.success) throw payloadError(checked.error.issues, event, `a complete ${type} event`);
  }
  // The schema of `type` checked every field its event type requires.
  return event as unknown as PaymentEvent;
}
