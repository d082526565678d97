// zod/mini: the verifier does not load these schemas but runs the hand-written checks of event-checks.ts,
// held to them by test/webhook-checks.test.ts; zod/mini keeps what else imports them (`@paymount/core/schemas`) small.
import * as zm from 'zod/mini';
import { mustBe, reportedAmountSchema } from '../schemas/amount';
import type { PaymentEventAmount } from './event';

const optionalText = zm.optional(zm.string(mustBe('a string')));

/** The reported amount as a webhook carries it: every part optional, the currency too. */
export const eventAmountSchema = zm.looseObject(
  { ...reportedAmountSchema.shape, priceCurrency: zm.optional(reportedAmountSchema.shape.priceCurrency) },
  mustBe('an object'),
);

/** Compiles only when A and B are each assignable to the other. */
type SameShape<A extends B, B extends C, C = A> = [A, B];
/** The public PaymentEventAmount is this schema's output: a change to either alone fails the typecheck here. */
export type EventAmountIsPublicType = SameShape<zm.output<typeof eventAmountSchema>, PaymentEventAmount>;

/**
 * A webhook body. Only the fields paymount reads are typed; everything else
 * passes through untouched. The verifier checks it with event-checks.ts `payloadIssues`.
 */
export const webhookPayloadSchema = zm.looseObject(
  {
    transactionId: optionalText,
    originalTransactionId: optionalText,
    transactionRequestId: optionalText,
    sessionId: optionalText,
    referenceOrderId: optionalText,
    transactionType: optionalText,
    transactionStatus: optionalText,
    amount: zm.optional(eventAmountSchema),
    reason: zm.optional(zm.looseObject({ code: optionalText, message: optionalText }, mustBe('an object'))),
    transactionResultCode: optionalText,
    transactionResultMsg: optionalText,
  },
  mustBe('an object'),
);

export type WebhookPayload = zm.output<typeof webhookPayloadSchema>;
