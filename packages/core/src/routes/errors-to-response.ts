import { PaymentErrorCode } from '../error-codes';
import {
  PaymentApiError,
  PaymentError,
  PaymentNetworkError,
  PaymentRateLimitError,
  PaymentResponseError,
  PaymentStoreUnavailableError,
  PaymentTimeoutError,
  PaymentValidationError,
  WebhookVerificationError,
} from '../errors';
import type { Logger } from '../logger';
import { logRouteFailure, type FailureContext } from './failure-log';
import type { NeutralResponse } from './neutral-http';
import type { RouteAnswer } from './route-answer';
import { BODY_TOO_LARGE_MESSAGE, PaymentRouteError } from './route-error';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): NeutralResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(
  status: number,
  error: { code: PaymentErrorCode; message: string; traceId?: string | undefined },
  headers: Record<string, string> = {},
): NeutralResponse {
  const body = { code: error.code, message: error.message, ...(error.traceId ? { traceId: error.traceId } : {}) };
  return jsonResponse(status, { error: body }, headers);
}

/** How an error is put into a response: the JSON error shape, unless a route's caller wants a page (see checkout-failure-page). */
export type ErrorRender = typeof errorResponse;

/** An error response and its code, as a route tells it. */
export function errorAnswer(
  status: number,
  error: { code: PaymentErrorCode; message: string; traceId?: string | undefined },
  headers: Record<string, string> = {},
  render: ErrorRender = errorResponse,
): RouteAnswer {
  return { response: render(status, error, headers), outcome: { errorCode: error.code } };
}

export const GENERIC_MESSAGE = 'An unexpected error occurred.';

/**
 * The longest wait passed on to the browser. The service's Retry-After is
 * about its own load; a huge or hostile value must not park a shopper's page
 * (or a client honouring it) for hours.
 */
const MAX_RETRY_AFTER_SECONDS = 60;

/** What the standalone entries answer outside the payment routes when the merchant gives no fallback. */
export function notFoundResponse(): NeutralResponse {
  return errorResponse(404, { code: PaymentErrorCode.NOT_FOUND, message: 'No route here.' });
}

interface StatusRule {
  status: number;
  code?: PaymentErrorCode;
  /** Service-side messages are replaced: they describe the merchant's integration, not the shopper's request. */
  message?: string;
}

function ruleFor(error: PaymentError): StatusRule {
  if (error instanceof PaymentRouteError) return { status: error.httpStatus };
  if (error instanceof WebhookVerificationError) {
    if (error.reason === 'body_too_large') return { status: 413, code: PaymentErrorCode.BODY_TOO_LARGE, message: BODY_TOO_LARGE_MESSAGE };
    return { status: webhookStatus(error) };
  }
  if (error instanceof PaymentValidationError) return { status: 400 };
  if (error instanceof PaymentRateLimitError) {
    return { status: 429, message: 'The payment service is busy (rate limit). Try again shortly.' };
  }
  if (error instanceof PaymentTimeoutError) {
    return { status: 504, message: 'The payment service did not answer in time; the outcome is not known yet.' };
  }
  if (error instanceof PaymentStoreUnavailableError) {
    return { status: 503, message: 'A store this route needs is unavailable; nothing was processed. Retry shortly.' };
  }
  if (error instanceof PaymentApiError) return { status: 502, message: 'The payment service refused the request.' };
  if (error instanceof PaymentResponseError || error instanceof PaymentNetworkError) {
    return { status: 502, message: 'The payment service could not be reached or answered unexpectedly.' };
  }
  return { status: 500, code: PaymentErrorCode.INTERNAL_ERROR, message: GENERIC_MESSAGE };
}

/**
 * A body consumed by another middleware is the merchant's mounting mistake, not
 * the sender's: 500 says "server error", and the service's retries then
 * succeed once the mounting is fixed.
 */
function webhookStatus(error: WebhookVerificationError): number {
  return error.reason === 'body_already_parsed' || error.reason === 'invalid_secret' ? 500 : 400;
}

/**
 * Maps any thrown value to the route error shape (packages/core/README.md#error-codes), and logs it
 * once (see logRouteFailure). Messages of paymount's own errors are written
 * never to hold a key or token; anything else is answered generically and only
 * logged (through the redacting logger).
 */
export function errorToAnswer(error: unknown, logger: Logger, context?: FailureContext, render: ErrorRender = errorResponse): RouteAnswer {
  if (!(error instanceof PaymentError)) {
    logRouteFailure(logger, error, 500, context);
    return errorAnswer(500, { code: PaymentErrorCode.INTERNAL_ERROR, message: GENERIC_MESSAGE }, {}, render);
  }
  const rule = ruleFor(error);
  logRouteFailure(logger, error, rule.status, context);
  const headers: Record<string, string> = {};
  if (error instanceof PaymentRateLimitError && error.retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
  }
  if (error instanceof PaymentRouteError && error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  // RFC 9110 15.5.9: a 408 closes the connection. The rest of a body still arriving is then never read, and the socket is freed.
  if (rule.status === 408) headers['connection'] = 'close';
  return errorAnswer(
    rule.status,
    { code: rule.code ?? error.code, message: rule.message ?? error.message, traceId: error.traceId },
    headers,
    render,
  );
}
