import { checkAgainst, describeIssues } from '../validation';
import { PaymentApiError, PaymentNotFoundError, PaymentRateLimitError, PaymentResponseError, type PaymentError } from '../errors';
import { redactValue } from '../logger';
import { responseEnvelopeSchema } from '../schemas/envelope';
import type { ResponseEnvelope } from '../types/response-envelope';
import { NOT_FOUND_CODES, RATE_LIMIT_CODE, SUCCESS_CODE } from '../service-codes';
import { parseRetryAfter } from './retry';
import type { HttpMethod, TransportResponse } from './transport';

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
