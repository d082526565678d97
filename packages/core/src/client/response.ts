// Reading an answer: the envelope and data schemas, refusals, Retry-After.
import * as z from 'zod/mini';
import type { HttpMethod, TransportResponse } from '../platform/contract';
import { reportedAmountSchema } from '../schemas/amount';
import { compiled } from '../schemas/compiled';
import type { SchemaContext } from '../schemas/urls';
import { NOT_FOUND_CODES, PaymentApiError, type PaymentError, PaymentNotFoundError, PaymentRateLimitError, PaymentResponseError, RATE_LIMIT_CODE, SUCCESS_CODE } from '../shared/errors';
import { redactValue } from '../shared/logger';
import type { ResponseEnvelope } from '../shared/types';
import { checkAgainst, describeIssues, isPlainObject } from '../shared/validation';

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
