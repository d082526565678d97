// zod/mini, imported whole as a namespace, so that `@paymount/core/webhooks` bundles only the zod it calls.
import * as z from 'zod/mini';
import { compileSchema } from '../platform/current';
import { reportedAmountSchema } from '../schemas/reported-amount';

const optionalText = z.optional(z.string());

/** The reported amount as a webhook carries it: every part optional, the currency too. */
export const eventAmountSchema = z.partial(reportedAmountSchema);

/**
 * A webhook body. Only the fields paymount reads are typed; everything else
 * passes through untouched. Compiled once where the platform can: every delivery goes through it.
 */
export const webhookPayloadSchema = compileSchema(
  z.looseObject({
    transactionId: optionalText,
    originalTransactionId: optionalText,
    transactionRequestId: optionalText,
    sessionId: optionalText,
    referenceOrderId: optionalText,
    transactionType: optionalText,
    transactionStatus: optionalText,
    amount: z.optional(eventAmountSchema),
    reason: z.optional(z.looseObject({ code: optionalText, message: optionalText })),
    transactionResultCode: optionalText,
    transactionResultMsg: optionalText,
  }),
);

export type WebhookPayload = z.output<typeof webhookPayloadSchema>;
