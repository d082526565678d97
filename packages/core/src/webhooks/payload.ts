import { z } from 'zod';
import { compile } from 'zod/v4/core';
import { reportedAmountSchema } from '../schemas/reported-amount';

const optionalText = z.string().optional();

/** The reported amount as a webhook carries it: every part optional, the currency too. */
export const eventAmountSchema = reportedAmountSchema.partial();

/**
 * A webhook body. Only the fields paymount reads are typed; everything else
 * passes through untouched. Compiled once: every delivery goes through it.
 */
export const webhookPayloadSchema = compile(
  z.looseObject({
    transactionId: optionalText,
    originalTransactionId: optionalText,
    transactionRequestId: optionalText,
    sessionId: optionalText,
    referenceOrderId: optionalText,
    transactionType: optionalText,
    transactionStatus: optionalText,
    amount: eventAmountSchema.optional(),
    reason: z.looseObject({ code: optionalText, message: optionalText }).optional(),
    transactionResultCode: optionalText,
    transactionResultMsg: optionalText,
  }),
);

export type WebhookPayload = z.output<typeof webhookPayloadSchema>;
