// zod/mini, imported whole as a namespace, so that `@paymount/core/webhooks` bundles only the zod it calls.
import * as zm from 'zod/mini';
import { compileSchema } from '../platform/current-verifier';
import { mustBe } from '../schemas/field-words';
import { reportedAmountSchema } from '../schemas/reported-amount';

const optionalText = zm.optional(zm.string(mustBe('a string')));

/** The reported amount as a webhook carries it: every part optional, the currency too. */
export const eventAmountSchema = zm.looseObject(
  { ...reportedAmountSchema.shape, priceCurrency: zm.optional(reportedAmountSchema.shape.priceCurrency) },
  mustBe('an object'),
);

/**
 * A webhook body. Only the fields paymount reads are typed; everything else
 * passes through untouched. Compiled once where the platform can: every delivery goes through it.
 */
export const webhookPayloadSchema = compileSchema(
  zm.looseObject(
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
  ),
);

export type WebhookPayload = zm.output<typeof webhookPayloadSchema>;
