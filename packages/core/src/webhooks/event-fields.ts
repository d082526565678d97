// The event rules (event-checks.ts EVENT_FIELD_RULES) as zod/mini schemas: the statement of each rule
// that test/webhook-checks.test.ts holds the verifier's hand-written checks to. The verifier loads none
// of this; zod/mini keeps what else imports it small.
import * as zm from 'zod/mini';
import { mustBe } from '../schemas/amount';
import { EVENT_FIELD_RULES, REASON_REQUIRED, type EventFieldRule, type NamedEventType } from './event-checks';

const text = zm.string(mustBe('a string'));
const id = text.check(zm.minLength(1, 'must not be empty'));
const reasonSchema = zm.object({ code: id, message: text }, { error: REASON_REQUIRED });

// Present and an object: its parts are the payload schema's to check.
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

/** Each rule as a schema: the rule paymount states and the words of its issues. */
export const EVENT_FIELD_SCHEMAS: Readonly<Record<NamedEventType, zm.ZodMiniObject>> = {
  'payment.succeeded': schemaOf(EVENT_FIELD_RULES['payment.succeeded']),
  'payment.failed': schemaOf(EVENT_FIELD_RULES['payment.failed']),
  'payment.closed': schemaOf(EVENT_FIELD_RULES['payment.closed']),
  'refund.succeeded': schemaOf(EVENT_FIELD_RULES['refund.succeeded']),
  'refund.failed': schemaOf(EVENT_FIELD_RULES['refund.failed']),
};
