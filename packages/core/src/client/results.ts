import { z } from 'zod';
import { describeIssues } from '../validation';
import { isPlainObject } from '../plain-object';
import { PaymentResponseError } from '../errors';
import type { SchemaContext } from '../schemas/urls';
import { parseExpiresAt, parseServiceTime } from '../session';
import { paymentStatusOf } from '../transaction-status';
import type { CallOutcome } from './call';
import type { HttpMethod } from './transport';
import type {
  CheckoutSession,
  ExpiredCheckoutSession,
  PaymentResult,
  RefundResult,
  TransactionDetails,
  TransactionResultReason,
  UnknownOutcome,
} from './types';

/**
 * The checkoutUrl becomes the shopper's redirect: HTTPS only, plain HTTP only
 * in local development (a sandbox on this machine).
 */
const checkoutSessionDataSchema = (protocol: RegExp, error: string) =>
  z.looseObject({
    checkoutUrl: z.url({ protocol, error }),
    expiresAt: z.union([z.string(), z.number()]).optional(),
    sessionId: z.union([z.string(), z.number()]).optional(),
  });
const sessionDataSchemas = {
  https: checkoutSessionDataSchema(/^https$/, 'must be an https URL (plain http only with localDevelopment)'),
  local: checkoutSessionDataSchema(/^https?$/, 'must be an http(s) URL'),
};

type SessionData = z.output<(typeof sessionDataSchemas)['https']>;

const PRINTABLE_ASCII = /^[!-~]+$/;
const textOrNumber = (value: unknown) => value === undefined || typeof value === 'string' || typeof value === 'number';

/**
 * What the session data schema accepts as it is, checked by hand: every
 * create-session answer goes through here, and a yes needs no zod parse. A
 * URL with any space, control or non-ASCII character, or another spelling
 * of the scheme, is a no (zod trims and strips those); the schema then decides
 * and words the issue. quick-checks.test.ts holds the two to agreeing.
 */
export function isCheckoutSessionData(data: unknown, context: SchemaContext): data is SessionData {
  if (!isPlainObject(data)) return false;
  const { checkoutUrl, expiresAt, sessionId } = data;
  return (
    typeof checkoutUrl === 'string' &&
    (checkoutUrl.startsWith('https://') || (context.localDevelopment === true && checkoutUrl.startsWith('http://'))) &&
    PRINTABLE_ASCII.test(checkoutUrl) &&
    URL.canParse(checkoutUrl) &&
    textOrNumber(expiresAt) &&
    textOrNumber(sessionId)
  );
}

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

const paymentDataSchema = z.looseObject({
  transactionStatus: z.string().optional(),
  transactionId: z.union([z.string(), z.number()]).optional(),
  ...resultReasonFields,
});

const serviceId = z.union([z.string().min(1), z.number()]).transform(String);
const serviceTime = z.union([z.string(), z.number()]).optional();

const transactionAmountSchema = z.looseObject({
  priceCurrency: z.string(),
  totalAmount: z.number().optional(),
  orderAmount: z.number().optional(),
  taxAmount: z.number().optional(),
  surchargeAmount: z.number().optional(),
  tipAmount: z.number().optional(),
});

const refundDataSchema = z.looseObject({
  transactionId: serviceId,
  originalTransactionId: serviceId,
  transactionStatus: z.string(),
  amount: transactionAmountSchema,
  createTime: serviceTime,
  completeTime: serviceTime,
  ...resultReasonFields,
});

const transactionDataSchema = z.looseObject({
  transactionId: serviceId,
  transactionRequestId: serviceId,
  referenceOrderId: z.string().optional(),
  transactionStatus: z.string(),
  transactionType: z.string(),
  amount: transactionAmountSchema,
  relatedTransactionStatus: z.string().optional(),
  createTime: serviceTime,
  completeTime: serviceTime,
  ...resultReasonFields,
});

const expiredSessionDataSchema = z.looseObject({
  sessionId: serviceId,
  sessionStatus: z.string(),
  expiredAt: serviceTime,
  transactionId: serviceId.optional(),
  transactionRequestId: serviceId.optional(),
});

type Answered = Extract<CallOutcome, { kind: 'answered' }>;

export function toCheckoutSession(
  outcome: Answered,
  path: string,
  transactionRequestId: string,
  context: SchemaContext = {},
): CheckoutSession {
  const answered = outcome.envelope.data;
  const data = isCheckoutSessionData(answered, context) ? answered : parseData(sessionDataSchema(context), outcome, path);
  return {
    checkoutUrl: data.checkoutUrl,
    expiresAt: parseExpiresAt(data.expiresAt, outcome.receivedAt),
    ...(data.sessionId === undefined ? {} : { sessionId: String(data.sessionId) }),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
}

/** Direct and terminal sales: an answered call maps its transactionStatus; an unknown outcome is pending, never failed. */
export function toPaymentResult(outcome: CallOutcome, path: string, transactionRequestId: string): PaymentResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(paymentDataSchema, outcome, path);
  return {
    status: paymentStatusOf(data.transactionStatus),
    ...(data.transactionStatus === undefined ? {} : { transactionStatus: data.transactionStatus }),
    ...(data.transactionId === undefined ? {} : { transactionId: String(data.transactionId) }),
    ...resultReasonOf(data),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
}

/** A refund: like a payment, an unknown outcome is pending, never failed. */
export function toRefundResult(outcome: CallOutcome, path: string, transactionRequestId: string): RefundResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(refundDataSchema, outcome, path);
  return {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionId: data.transactionId,
    originalTransactionId: data.originalTransactionId,
    transactionRequestId,
    amount: data.amount,
    ...timesOf(data),
    ...resultReasonOf(data),
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
}

export function toTransactionDetails(outcome: Answered, path: string): TransactionDetails {
  const data = parseData(transactionDataSchema, outcome, path, 'GET');
  return {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionType: data.transactionType,
    transactionId: data.transactionId,
    transactionRequestId: data.transactionRequestId,
    ...(data.referenceOrderId === undefined ? {} : { referenceOrderId: data.referenceOrderId }),
    amount: data.amount,
    ...(data.relatedTransactionStatus === undefined ? {} : { relatedTransactionStatus: data.relatedTransactionStatus }),
    ...timesOf(data),
    ...resultReasonOf(data),
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
}

export function toExpiredCheckoutSession(outcome: Answered, path: string): ExpiredCheckoutSession {
  const data = parseData(expiredSessionDataSchema, outcome, path);
  return {
    sessionId: data.sessionId,
    sessionStatus: data.sessionStatus,
    expiredAt: parseServiceTime(data.expiredAt) ?? new Date(outcome.receivedAt),
    ...(data.transactionId === undefined ? {} : { transactionId: data.transactionId }),
    ...(data.transactionRequestId === undefined ? {} : { transactionRequestId: data.transactionRequestId }),
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
}

/** A write that may have been made although no answer said so: pending, never failed. */
function unknownOutcome(outcome: Extract<CallOutcome, { kind: 'unknown' }>, transactionRequestId: string): UnknownOutcome {
  return {
    status: 'pending',
    transactionRequestId,
    ...(outcome.error.traceId === undefined ? {} : { traceId: outcome.error.traceId }),
    outcomeUnknown: true,
  };
}

function resultReasonOf(data: z.output<z.ZodObject<typeof resultReasonFields>>): TransactionResultReason {
  const resultCode = data.transactionResultCode ?? data.reason?.code;
  const resultMessage = data.transactionResultMsg ?? data.reason?.message;
  return {
    ...(resultCode === undefined ? {} : { resultCode }),
    ...(resultMessage === undefined ? {} : { resultMessage }),
  };
}

/** createTime / completeTime as dates; one the service sent unreadable is left out rather than failing a call that succeeded. */
function timesOf(data: { createTime?: string | number | undefined; completeTime?: string | number | undefined }): {
  createdAt?: Date;
  completedAt?: Date;
} {
  const createdAt = parseServiceTime(data.createTime);
  const completedAt = parseServiceTime(data.completeTime);
  return {
    ...(createdAt === undefined ? {} : { createdAt }),
    ...(completedAt === undefined ? {} : { completedAt }),
  };
}

function parseData<S extends z.ZodType>(schema: S, outcome: Answered, path: string, method: HttpMethod = 'POST'): z.output<S> {
  const parsed = schema.safeParse(outcome.envelope.data);
  if (parsed.success) return parsed.data;
  throw new PaymentResponseError(`${method} ${path} succeeded but its data is unusable: ${describeIssues(parsed.error.issues, 'data')}`, {
    traceId: outcome.envelope.traceId,
    httpStatus: outcome.httpStatus,
  });
}
