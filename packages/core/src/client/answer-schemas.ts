import * as z from 'zod/mini';
import { compiled } from '../schemas/compiled';
import { reportedAmountSchema } from '../schemas/reported-amount';
import type { SchemaContext } from '../schemas/urls';

/**
 * The `data` of the service's success answers, as paymount reads them: the
 * rule for what an answer must hold, and the words of every refusal. Each is
 * compiled once: its fast path is derived from it, and a no runs the parser
 * that words the issue.
 */

/**
 * The checkoutUrl becomes the shopper's redirect: HTTPS only, plain HTTP only
 * in local development (a sandbox on this machine).
 */
const checkoutSessionDataSchema = (protocol: RegExp, error: string) =>
  compiled(
    z.looseObject({
      checkoutUrl: z.url({ protocol, error }),
      expiresAt: z.optional(z.union([z.string(), z.number()])),
      sessionId: z.optional(z.union([z.string(), z.number()])),
    }),
  );
const sessionDataSchemas = {
  https: checkoutSessionDataSchema(/^https$/, 'must be an https URL (plain http only with localDevelopment)'),
  local: checkoutSessionDataSchema(/^https?$/, 'must be an http(s) URL'),
};

export type SessionData = z.output<(typeof sessionDataSchemas)['https']>;

/** The session data schema of a client's context (plain http only in local development). */
export function sessionDataSchema(context: SchemaContext) {
  return context.localDevelopment ? sessionDataSchemas.local : sessionDataSchemas.https;
}

/** Why a transaction ended as it did. `reason` is how the sandbox said it before `transactionResultCode`; an unreadable one is ignored. */
const resultReasonFields = {
  transactionResultCode: z.optional(z.string()),
  transactionResultMsg: z.optional(z.string()),
  reason: z.catch(z.optional(z.looseObject({ code: z.optional(z.string()), message: z.optional(z.string()) })), undefined),
};

export type ResultReasonData = z.output<z.ZodMiniObject<typeof resultReasonFields>>;

export const paymentDataSchema = compiled(
  z.looseObject({
    transactionStatus: z.optional(z.string()),
    transactionId: z.optional(z.union([z.string(), z.number()])),
    ...resultReasonFields,
  }),
);

const serviceId = z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String));
const serviceTime = z.optional(z.union([z.string(), z.number()]));

/** The fields every transaction answer (a refund, a looked-up transaction) reports about its outcome. */
const outcomeFields = {
  transactionStatus: z.string(),
  amount: reportedAmountSchema,
  createTime: serviceTime,
  completeTime: serviceTime,
  ...resultReasonFields,
};

export const refundDataSchema = compiled(
  z.looseObject({
    transactionId: serviceId,
    originalTransactionId: serviceId,
    ...outcomeFields,
  }),
);

export const transactionDataSchema = compiled(
  z.looseObject({
    transactionId: serviceId,
    transactionRequestId: serviceId,
    referenceOrderId: z.optional(z.string()),
    transactionType: z.string(),
    relatedTransactionStatus: z.optional(z.string()),
    ...outcomeFields,
  }),
);

export type RefundData = z.output<typeof refundDataSchema>;
export type TransactionData = z.output<typeof transactionDataSchema>;

export const expiredSessionDataSchema = compiled(
  z.looseObject({
    sessionId: serviceId,
    sessionStatus: z.string(),
    expiredAt: serviceTime,
    transactionId: z.optional(serviceId),
    transactionRequestId: z.optional(serviceId),
  }),
);
