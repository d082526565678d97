// A webhook body's fields checked by hand: the rules of webhookPayloadSchema (payload.ts) and
// EVENT_FIELD_SCHEMAS (event-fields.ts), in their words and order, without zod, so a Worker that
// only verifies webhooks carries none (8 KB budget) and runs no `new Function` (workerd forbids it).
// test/webhook-checks.test.ts runs these and the schemas on the same inputs and expects the same issues.
import type { ValidationIssue } from '../shared/errors';
import type { PaymentEventType } from './event';

export type NamedEventType = Exclude<PaymentEventType, 'unknown'>;

/** The fields an event of one kind cannot do without: what the service sends for every event of the kind. */
export interface EventFieldRule {
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

/** The rule of each named event; event-fields.ts builds its schemas from the same table. */
export const EVENT_FIELD_RULES: Readonly<Record<NamedEventType, EventFieldRule>> = {
  'payment.succeeded': { ids: PAYMENT_IDS, optionalIds: ['sessionId'], reason: false },
  'payment.failed': { ids: PAYMENT_IDS, optionalIds: ['sessionId'], reason: true },
  'payment.closed': { ids: [...PAYMENT_IDS, 'sessionId'], optionalIds: [], reason: true },
  'refund.succeeded': { ids: REFUND_IDS, optionalIds: ['referenceOrderId'], reason: false },
  'refund.failed': { ids: REFUND_IDS, optionalIds: ['referenceOrderId'], reason: true },
};

/** The words of a failure event without its reason, whether absent or of another type. */
export const REASON_REQUIRED = 'must be sent, as a reason object or as transactionResultCode and transactionResultMsg';

/** What a field must be, in mustBe's words (schemas/amount.ts). */
type Kind = 'a string' | 'a number' | 'an object';

/** Whether `value` is of `kind`, as zod's parser tests it: numbers finite, objects neither null nor arrays. */
function isKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'a string':
      return typeof value === 'string';
    case 'a number':
      return Number.isFinite(value);
    case 'an object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/**
 * Whether `value` is of `kind`. If not, its issue is added: `required` when it
 * is absent, `type` otherwise, in mustBe's words unless `message` says otherwise.
 */
function hasKind(issues: ValidationIssue[], path: string, value: unknown, kind: Kind, message?: string): boolean {
  if (isKind(value, kind)) return true;
  if (value === undefined) issues.push({ path, rule: 'required', message: message ?? 'is required' });
  else issues.push({ path, rule: 'type', message: message ?? `must be ${kind}` });
  return false;
}

/**
 * A non-empty string. As zod does, the length is checked whatever the type,
 * after it: an empty array breaks `min_items` besides being no string.
 */
function checkId(issues: ValidationIssue[], path: string, value: unknown): void {
  hasKind(issues, path, value, 'a string');
  const length = value === undefined || value === null ? undefined : (value as { length?: unknown }).length;
  if (length === undefined || (length as number) >= 1) return;
  const rule = typeof value === 'string' ? 'min_length' : Array.isArray(value) ? 'min_items' : 'min';
  issues.push({ path, rule, message: 'must not be empty' });
}

/** Fields that are each optional, in the schema's order; an object's own fields under it. */
type OptionalFields = readonly (readonly [name: string, kind: Kind, fields?: OptionalFields])[];

const AMOUNT_FIELDS: OptionalFields = [
  ['priceCurrency', 'a string'],
  ['totalAmount', 'a number'],
  ['orderAmount', 'a number'],
  ['taxAmount', 'a number'],
  ['surchargeAmount', 'a number'],
  ['tipAmount', 'a number'],
];

/** The fields of a body paymount reads (webhookPayloadSchema's): every other field passes untouched. */
const PAYLOAD_FIELDS: OptionalFields = [
  ['transactionId', 'a string'],
  ['originalTransactionId', 'a string'],
  ['transactionRequestId', 'a string'],
  ['sessionId', 'a string'],
  ['referenceOrderId', 'a string'],
  ['transactionType', 'a string'],
  ['transactionStatus', 'a string'],
  ['amount', 'an object', AMOUNT_FIELDS],
  ['reason', 'an object', [['code', 'a string'], ['message', 'a string']]],
  ['transactionResultCode', 'a string'],
  ['transactionResultMsg', 'a string'],
];

function checkOptionalFields(issues: ValidationIssue[], value: Record<string, unknown>, fields: OptionalFields, under: string): void {
  for (const [name, kind, inner] of fields) {
    const field = value[name];
    if (field !== undefined && hasKind(issues, under + name, field, kind) && inner !== undefined) {
      checkOptionalFields(issues, field as Record<string, unknown>, inner, `${under}${name}.`);
    }
  }
}

/** The issues of a webhook body as webhookPayloadSchema states them; empty when it has none. */
export function payloadIssues(body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (hasKind(issues, '', body, 'an object')) checkOptionalFields(issues, body as Record<string, unknown>, PAYLOAD_FIELDS, '');
  return issues;
}

/** The issues of an event as its type's EVENT_FIELD_SCHEMAS entry states them; empty when it has none. */
export function eventFieldIssues(type: NamedEventType, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!hasKind(issues, '', value, 'an object')) return issues;
  const event = value as Record<string, unknown>;
  const rule = EVENT_FIELD_RULES[type];
  for (const name of rule.ids) checkId(issues, name, event[name]);
  for (const name of rule.optionalIds) if (event[name] !== undefined) checkId(issues, name, event[name]);
  // Present and an object: its parts are the payload's rules, checked already.
  hasKind(issues, 'amount', event.amount, 'an object');
  if (rule.reason && hasKind(issues, 'reason', event.reason, 'an object', REASON_REQUIRED)) {
    const reason = event.reason as Record<string, unknown>;
    checkId(issues, 'reason.code', reason.code);
    hasKind(issues, 'reason.message', reason.message, 'a string');
  }
  return issues;
}
