// Reading an answer: the envelope and data schemas, refusals, Retry-After; the answer as the client's results, session expiry.
import * as z from 'zod/mini';
import type { HttpMethod, TransportResponse } from '../platform/contract';
import { reportedAmountSchema } from '../schemas/amount';
import { compiled } from '../schemas/compiled';
import type { SchemaContext } from '../schemas/urls';
import { NOT_FOUND_CODES, PaymentApiError, type PaymentError, PaymentNotFoundError, PaymentRateLimitError, PaymentResponseError, RATE_LIMIT_CODE, SUCCESS_CODE } from '../shared/errors';
import { redactValue } from '../shared/logger';
import { paymentStatusOf, type ResponseEnvelope } from '../shared/types';
import { checkAgainst, describeIssues, isPlainObject, type ParsableSchema } from '../shared/validation';
import type { CheckoutSession, ExpiredCheckoutSession, PaymentResult, RefundResult, TransactionDetails, UnknownOutcome } from './types';

/**
 * The envelope every response carries. `data` is required on success; error
 * envelopes are accepted without it so their code and traceId still reach the
 * caller.
 */
export const responseEnvelopeSchema = compiled(
  z.looseObject({
    code: z.string(),
    msg: z.optional(z.string()),
    traceId: z.string(),
    // Keys of parsed JSON are strings, so "an object" is the whole rule; unlike z.record it
    // does not copy the data of every answer.
    data: z.nullish(z.custom<Record<string, unknown>>(isPlainObject, 'must be an object')),
  }),
);

export type { ResponseEnvelope } from '../shared/types';

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

export type SuccessEnvelope = ResponseEnvelope & { data: Record<string, unknown> };

export type Interpretation =
  | { ok: true; envelope: SuccessEnvelope }
  | {
      ok: false;
      error: PaymentError;
      retryable: boolean;
      /** The service may have acted on the request although no usable answer came back. */
      maybeProcessed: boolean;
      retryAfterMs?: number | undefined;
    };

const SNIPPET_CHARS = 80;

/** An answer that is no usable envelope; its own function rather than a closure built for every answer. */
function malformedAnswer(method: HttpMethod, path: string, status: number, what: string): Extract<Interpretation, { ok: false }> {
  return {
    ok: false,
    error: new PaymentResponseError(`${method} ${path} answered HTTP ${status} ${what}`, { httpStatus: status }),
    // A garbled 2xx is asked again too: every call is safe to repeat (a write carries its
    // transactionRequestId or, expiring a session, has the same effect twice; a read has
    // none). A non-envelope 4xx (a wrong baseUrl) will not heal.
    retryable: status >= 500 || status === 429 || (status >= 200 && status < 300),
    maybeProcessed: status >= 500 || status < 300,
  };
}

/**
 * Reads the envelope and decides what the answer means. A refusal envelope is
 * believed whatever the HTTP status; a success envelope only on a 2xx; the
 * status alone decides when the body is not a valid envelope (a proxy error page).
 * `redact` cuts secrets out of any text quoted from the response.
 */
export function interpretResponse(
  method: HttpMethod,
  path: string,
  response: TransportResponse,
  nowMs: number,
  redact: (text: string) => string,
): Interpretation {
  const { status } = response;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    const contentType = String(response.headers['content-type'] ?? 'none');
    // Redacted before cutting, so a secret straddling the cut cannot leak its first half.
    const snippet = redact(response.body).slice(0, SNIPPET_CHARS).replace(/\s+/g, ' ');
    return malformedAnswer(method, path, status, `with a body that is not JSON (content-type ${contentType}): "${snippet}"`);
  }
  const parsed = checkAgainst(responseEnvelopeSchema, json);
  if (!parsed.success) return malformedAnswer(method, path, status, `with JSON that is not a response envelope: ${describeIssues(parsed.error.issues)}`);
  const envelope = parsed.data;
  if (envelope.code === SUCCESS_CODE) {
    if (!envelope.data) return malformedAnswer(method, path, status, 'with code "0" but no data object');
    // Success is believed on a 2xx only. A redirect or error status claiming it is no answer the
    // service gives; since it claims the request went through, a payment's outcome is then unknown.
    if (status < 200 || status >= 300) return { ...malformedAnswer(method, path, status, 'with code "0": a success answer must be a 2xx'), maybeProcessed: true };
    return { ok: true, envelope: envelope as SuccessEnvelope };
  }
  // Only a refusal quotes msg and data, so only then is it worth redacting.
  const msg = envelope.msg === undefined ? undefined : redact(envelope.msg);
  const data = envelope.data ? (redactValue(envelope.data, redact) as Record<string, unknown>) : undefined;
  if (envelope.code === RATE_LIMIT_CODE) {
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], nowMs);
    return {
      ok: false,
      error: new PaymentRateLimitError(`${method} ${path} was rate limited (S04)${msg ? `: ${msg}` : ''}`, {
        msg,
        data,
        traceId: envelope.traceId,
        httpStatus: status,
        retryAfterMs,
      }),
      retryable: true,
      maybeProcessed: false,
      retryAfterMs,
    };
  }
  const Refusal = NOT_FOUND_CODES.has(envelope.code) ? PaymentNotFoundError : PaymentApiError;
  const serviceCode = redact(envelope.code);
  return {
    ok: false,
    error: new Refusal(`${method} ${path} was refused with code ${serviceCode}${msg ? `: ${msg}` : ''}`, {
      serviceCode,
      msg,
      data,
      traceId: envelope.traceId,
      httpStatus: status,
    }),
    retryable: false,
    maybeProcessed: false,
  };
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** A checkout session is usable for 30 minutes after the successful create-session response. */
export const SESSION_LIFETIME_MS = 30 * 60 * 1000;

/** Epoch values below this are taken as seconds: as milliseconds they would fall in January 1970. */
const SECONDS_THRESHOLD = 1e11;

/**
 * How far from its receipt an expiresAt is believed. Up to a year in the
 * past: a repeated transactionRequestId is answered with the session it
 * opened then, long expired, and taking that for a fresh 30 minutes would
 * hand out a dead checkoutUrl. At most a day ahead.
 */
const EARLIEST_BEFORE_RECEIPT_MS = 366 * 24 * 60 * 60_000;
const LATEST_AFTER_RECEIPT_MS = 24 * 60 * 60_000;

/**
 * The format of `expiresAt` is left open (docs/service-contract.md#session-lifetime): ISO 8601 is expected, epoch
 * milliseconds or seconds are accepted. When it is absent, unreadable or
 * implausible (more than a year before receipt, more than a day after it), the
 * lifetime is counted from when the response arrived, so a session never
 * carries an Invalid Date or a time that would keep a dead checkoutUrl in use.
 */
export function parseExpiresAt(value: unknown, receivedAt: number): Date {
  const at = serviceTimeMs(value);
  const plausible =
    at !== undefined && at >= receivedAt - EARLIEST_BEFORE_RECEIPT_MS && at <= receivedAt + LATEST_AFTER_RECEIPT_MS;
  return new Date(plausible ? at : receivedAt + SESSION_LIFETIME_MS);
}

/** A time the service sent: ISO 8601, epoch milliseconds or epoch seconds; undefined when absent or unreadable. */
export function parseServiceTime(value: unknown): Date | undefined {
  const at = serviceTimeMs(value);
  return at === undefined ? undefined : new Date(at);
}

/** parseServiceTime's time as epoch milliseconds: every answer's expiresAt is read, so no Date is made only to be read back. */
function serviceTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // Past JavaScript's date range (e.g. 1e20) a Date is Invalid: that is no time at all.
    const at = new Date(value < SECONDS_THRESHOLD ? value * 1000 : value).getTime();
    return Number.isNaN(at) ? undefined : at;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return serviceTimeMs(Number(text));
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** How a call ended. */
export type CallOutcome =
  | { kind: 'answered'; envelope: SuccessEnvelope; httpStatus: number; receivedAt: number }
  /** No definitive answer, and some attempt may have reached the service: the webhook settles it. */
  | { kind: 'unknown'; error: PaymentError };

type Answered = Extract<CallOutcome, { kind: 'answered' }>;

export function toCheckoutSession(
  outcome: Answered,
  path: string,
  transactionRequestId: string,
  context: SchemaContext = {},
): CheckoutSession {
  const data = parseData(sessionDataSchema(context), outcome, path);
  const session: CheckoutSession = {
    checkoutUrl: data.checkoutUrl,
    expiresAt: parseExpiresAt(data.expiresAt, outcome.receivedAt),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
  if (data.sessionId !== undefined) session.sessionId = String(data.sessionId);
  return session;
}

/** Direct and terminal sales: an answered call maps its transactionStatus; an unknown outcome is pending, never failed. */
export function toPaymentResult(outcome: CallOutcome, path: string, transactionRequestId: string): PaymentResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(paymentDataSchema, outcome, path);
  const payment: PaymentResult = {
    status: paymentStatusOf(data.transactionStatus),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
  if (data.transactionStatus !== undefined) payment.transactionStatus = data.transactionStatus;
  if (data.transactionId !== undefined) payment.transactionId = String(data.transactionId);
  setResultReason(payment, data);
  return payment;
}

/** A refund: like a payment, an unknown outcome is pending, never failed. */
export function toRefundResult(outcome: CallOutcome, path: string, transactionRequestId: string): RefundResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(refundDataSchema, outcome, path);
  const refund: RefundResult = {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionId: data.transactionId,
    originalTransactionId: data.originalTransactionId,
    transactionRequestId,
    amount: data.amount,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
  setTimes(refund, data);
  setResultReason(refund, data);
  return refund;
}

export function toTransactionDetails(outcome: Answered, path: string): TransactionDetails {
  const data = parseData(transactionDataSchema, outcome, path, 'GET');
  const details: TransactionDetails = {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionType: data.transactionType,
    transactionId: data.transactionId,
    transactionRequestId: data.transactionRequestId,
    amount: data.amount,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
  if (data.referenceOrderId !== undefined) details.referenceOrderId = data.referenceOrderId;
  if (data.relatedTransactionStatus !== undefined) details.relatedTransactionStatus = data.relatedTransactionStatus;
  setTimes(details, data);
  setResultReason(details, data);
  return details;
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

/** Why the transaction ended as it did, when the service said. */
function setResultReason(result: { resultCode?: string; resultMessage?: string }, data: ResultReasonData): void {
  const resultCode = data.transactionResultCode ?? data.reason?.code;
  const resultMessage = data.transactionResultMsg ?? data.reason?.message;
  if (resultCode !== undefined) result.resultCode = resultCode;
  if (resultMessage !== undefined) result.resultMessage = resultMessage;
}

/** createTime / completeTime as dates; one the service sent unreadable is left out rather than failing a call that succeeded. */
function setTimes(
  result: { createdAt?: Date; completedAt?: Date },
  data: { createTime?: string | number | undefined; completeTime?: string | number | undefined },
): void {
  const createdAt = parseServiceTime(data.createTime);
  const completedAt = parseServiceTime(data.completeTime);
  if (createdAt !== undefined) result.createdAt = createdAt;
  if (completedAt !== undefined) result.completedAt = completedAt;
}

function parseData<S extends ParsableSchema>(schema: S, outcome: Answered, path: string, method: HttpMethod = 'POST'): z.output<S> {
  const parsed = checkAgainst(schema, outcome.envelope.data);
  if (parsed.success) return parsed.data;
  throw new PaymentResponseError(`${method} ${path} succeeded but its data is unusable: ${describeIssues(parsed.error.issues, 'data')}`, {
    traceId: outcome.envelope.traceId,
    httpStatus: outcome.httpStatus,
  });
}
