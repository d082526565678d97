// zod/mini: the verifier does not load these schemas but the checks generated from them
// (scripts/compile-webhook-checks.ts); zod/mini keeps what else imports them (`@paymount/core/schemas`) small.
import * as zm from 'zod/mini';
import { mustBe } from '../schemas/amount';
import type { PaymentEventType } from './event';

const text = zm.string(mustBe('a string'));
const id = text.check(zm.minLength(1, 'must not be empty'));
const reasonSchema = zm.object(
  { code: id, message: text },
  { error: 'must be sent, as a reason object or as transactionResultCode and transactionResultMsg' },
);
export type NamedEventType = Exclude<PaymentEventType, 'unknown'>;

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

// Present and an object: its parts are the payload schema's to check, and an empty loose object
// keeps nothing to copy, so the check costs a type test (bench: webhook-verify).
const amountPresent = zm.looseObject({}, mustBe('an object'));

function schemaOf(rule: EventFieldRule): zm.ZodMiniObject {
  return zm.object(
    {
      ...Object.fromEntries(rule.ids.map((name) => [name, id])),
      ...Object.fromEntries(rule.optionalIds.map((name) => [name, zm.optional(id)])),
      amount: amountPresent,
      ...(rule.reason ? { reason: reasonSchema } : {}),
    },
    mustBe('an object'),
  );
}

/** Each rule as a schema: the rule paymount states and the words of its issues. The verifier runs compiled-checks.ts, generated from these. */
export const EVENT_FIELD_SCHEMAS: Readonly<Record<NamedEventType, zm.ZodMiniObject>> = {
  'payment.succeeded': schemaOf(EVENT_FIELD_RULES['payment.succeeded']),
  'payment.failed': schemaOf(EVENT_FIELD_RULES['payment.failed']),
  'payment.closed': schemaOf(EVENT_FIELD_RULES['payment.closed']),
  'refund.succeeded': schemaOf(EVENT_FIELD_RULES['refund.succeeded']),
  'refund.failed': schemaOf(EVENT_FIELD_RULES['refund.failed']),
};
