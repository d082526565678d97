// zod/mini, imported whole as a namespace, so that `@paymount/core/webhooks` bundles only the zod it calls.
import * as z from 'zod/mini';
import { compileSchema } from '../platform/current-verifier';
import { mustBe } from '../schemas/field-words';
import { reportedAmountSchema } from '../schemas/reported-amount';

const optionalText = z.optional(z.string(mustBe('a string')));

/** The reported amount as a webhook carries it: every part optional, the currency too. */
export const eventAmountSchema = z.looseObject(
  { ...reportedAmountSchema.shape, priceCurrency: z.optional(reportedAmountSchema.shape.priceCurrency) },
  mustBe('an object'),
);

/**
 * A webhook body. Only the fields paymount reads are typed; everything else
 * passes through untouched. Compiled once where the platform can: every delivery goes through it.
 */
export const webhookPayloadSchema = compileSchema(
  z.looseObject(
    {
      transactionId: optionalText,
      originalTransactionId: optionalText,
      transactionRequestId: optionalText,
      sessionId: optionalText,
      referenceOrderId: optionalText,
      transactionType: optionalText,
      transactionStatus: optionalText,
      amount: z.optional(eventAmountSchema),
      reason: z.optional(z.looseObject({ code: optionalText, message: optionalText }, mustBe('an object'))),
      transactionResultCode: optionalText,
      transactionResultMsg: optionalText,
    },
    mustBe('an object'),
  ),
);

export type WebhookPayload = z.output<typeof webhookPayloadSchema>;
