import { z } from 'zod';
import { compile } from 'zod/v4/core';
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
  compile(
    z.looseObject({
      checkoutUrl: z.url({ protocol, error }),
      expiresAt: z.union([z.string(), z.number()]).optional(),
      sessionId: z.union([z.string(), z.number()]).optional(),
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
  transactionResultCode: z.string().optional(),
  transactionResultMsg: z.string().optional(),
  reason: z.looseObject({ code: z.string().optional(), message: z.string().optional() }).optional().catch(undefined),
};

export type ResultReasonData = z.output<z.ZodObject<typeof resultReasonFields>>;

export const paymentDataSchema = compile(
  z.looseObject({
    transactionStatus: z.string().optional(),
    transactionId: z.union([z.string(), z.number()]).optional(),
    ...resultReasonFields,
  }),
);

const serviceId = z.union([z.string().min(1), z.number()]).transform(String);
const serviceTime = z.union([z.string(), z.number()]).optional();

/** The fields every transaction answer (a refund, a looked-up transaction) reports about its outcome. */
const outcomeFields = {
  transactionStatus: z.string(),
  amount: reportedAmountSchema,
  createTime: serviceTime,
  completeTime: serviceTime,
  ...resultReasonFields,
};

export const refundDataSchema = compile(
  z.looseObject({
    transactionId: serviceId,
    originalTransactionId: serviceId,
    ...outcomeFields,
  }),
);

export const transactionDataSchema = compile(
  z.looseObject({
    transactionId: serviceId,
    transactionRequestId: serviceId,
    referenceOrderId: z.string().optional(),
    transactionType: z.string(),
    relatedTransactionStatus: z.string().optional(),
    ...outcomeFields,
  }),
);

export type RefundData = z.output<typeof refundDataSchema>;
export type TransactionData = z.output<typeof transactionDataSchema>;

export const expiredSessionDataSchema = compile(
  z.looseObject({
    sessionId: serviceId,
    sessionStatus: z.string(),
    expiredAt: serviceTime,
    transactionId: serviceId.optional(),
    transactionRequestId: serviceId.optional(),
  }),
);
