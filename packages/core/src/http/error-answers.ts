// An error to a logged JSON answer, or to the checkout's failure page for a browser form.
import { PaymentApiError, PaymentError, PaymentErrorCode, PaymentNetworkError, PaymentRateLimitError, PaymentResponseError, PaymentStoreUnavailableError, PaymentTimeoutError, PaymentValidationError, type WebhookFailureReason, WebhookVerificationError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { BODY_TOO_LARGE_MESSAGE, isOwnOrigin, type NeutralHeaders, type NeutralRequest, type NeutralResponse, PaymentRouteError, type RouteAnswer } from './neutral-http';

/** Where a failure happened, and what the handlers know of their own setup that can explain it. */
export interface FailureContext {
  method?: string;
  /** How to fix a body a parser before the routes consumed, in the framework's words (from the adapter). */
  consumedBodyFix?: string;
  /** The route's path below the mount point, e.g. '/webhook'. */
  path?: string;
  /** How to fix a webhook delivery refused for its time (see clockFix). */
  clockFix?: string;
}

/**
 * The consumed-body fix when the adapter names none (createNodeMiddleware):
 * in the words of a plain Node server. Each framework adapter passes its own
 * (`consumedBodyFix`), so an Express app reads Express and a Koa app Koa.
 */
export const MOUNTING_ORDER_FIX =
  'a body parser read the request before paymount and kept no raw bytes, which the webhook signature covers: ' +
  'call the payment routes before the parser, or have it keep the exact bytes as a Buffer in req.rawBody';

const TIME_REASONS: ReadonlySet<WebhookFailureReason> = new Set(['stale_timestamp', 'future_timestamp', 'stale_event', 'future_event']);

/**
 * The fix for a delivery refused for its time. When the client reads time from
 * a clock of its own (sandbox.clientOptions() brings the sandbox's) and the
 * routes do not, the two disagree as soon as that clock moves: that is the
 * likely cause, and paymount can name it.
 */
export function clockFix(clientClock: object | undefined, routesClock: object | undefined): string {
  if (clientClock !== undefined && clientClock !== routesClock) {
    return (
      "the client's clock option (sandbox.clientOptions() brings sandbox.clock) is not the routes' clock, so webhooks are judged by another time: " +
      'pass the same clock to the payment routes too, as in `{ ...options, clock: sandbox.clock }`'
    );
  }
  return (
    "a replayed or long-delayed delivery, or the sender's clock and this server's disagree: check this server's clock; " +
    'against a sandbox whose clock was moved, give the payment routes its clock, as in `{ ...options, clock: sandbox.clock }`'
  );
}

function fixFor(error: PaymentError, context: FailureContext): string | undefined {
  if (error instanceof PaymentRouteError) return error.fix;
  if (!(error instanceof WebhookVerificationError)) return undefined;
  if (error.reason === 'body_already_parsed') return context.consumedBodyFix ?? MOUNTING_ORDER_FIX;
  return TIME_REASONS.has(error.reason) ? context.clockFix : undefined;
}

/**
 * Logs a route's failure once, where it becomes the answer. What the merchant
 * must act on reaches the default console logger (warn and error): every 5xx,
 * every refused webhook delivery, a rate limit, a refusal with a known fix. A
 * shopper's bad request (400, 404, 409...) is only an info line.
 */
export function logRouteFailure(logger: Logger, error: unknown, status: number, context: FailureContext = {}): void {
  const route = context.method === undefined || context.path === undefined ? {} : { route: `${context.method} ${context.path}` };
  if (!(error instanceof PaymentError)) {
    logger.error({ ...route, status, err: error }, 'paymount route failed unexpectedly');
    return;
  }
  const fix = fixFor(error, context);
  const fields = {
    ...route,
    status,
    code: error.code,
    message: error.message,
    // The service's own code is answered to nobody (it describes the integration), so the log is where it is found.
    ...(error instanceof PaymentApiError ? { serviceCode: error.serviceCode } : {}),
    ...(error.traceId === undefined ? {} : { traceId: error.traceId }),
    ...(error instanceof PaymentRouteError ? error.details : {}),
    ...(error.cause === undefined ? {} : { err: error.cause }),
    ...(fix === undefined ? {} : { fix }),
  };
  if (status >= 500) logger.error(fields, 'paymount route failed');
  else if (context.path === '/webhook' || status === 429 || fix !== undefined) logger.warn(fields, 'paymount route refused a request');
  else logger.info(fields, 'paymount route refused a request');
}

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
 * Maps any thrown value to the route error shape (https://paymount.dev/troubleshooting/error-codes.html), and logs it
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

const FORM_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** The q-value `accept` gives `type` (`text/html`): its own entry, else its family's (`text/*`), else `*\/*`, else 0. */
function qualityOf(accept: string, type: string): number {
  const family = `${type.split('/', 1)[0]}/*`;
  const found = new Map<string, number>();
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (range && !found.has(range)) found.set(range, Number.isFinite(quality) ? quality : 0);
  }
  return found.get(type) ?? found.get(family) ?? found.get('*/*') ?? 0;
}

/**
 * A shopper's browser submitting the checkout form: a form body, and an Accept
 * that prefers a page to JSON (every browser's navigation does). A script
 * posting a form with `Accept: application/json`, or none, keeps JSON.
 */
export function isBrowserFormPost(headers: NeutralHeaders): boolean {
  const mediaType = headerText(headers['content-type'])?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === undefined || !FORM_MEDIA_TYPES.has(mediaType)) return false;
  const accept = headerText(headers.accept) ?? '';
  return qualityOf(accept, 'text/html') > qualityOf(accept, 'application/json');
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made inert in HTML, in an element or a quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/**
 * Where "Back to the shop" leads: the page the form was on when the browser
 * says it is this site's (a same-origin Referer), else the site's root. A
 * Referer of another site is never linked to, so the page cannot send a
 * shopper away to whoever posted the form.
 */
function backLink(headers: NeutralHeaders): string {
  const referer = headerText(headers.referer);
  const url = referer === undefined ? undefined : URL.parse(referer);
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && isOwnOrigin(url.origin, headers)) return url.href;
  return '/';
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Nothing on the page loads or runs: no script, no style sheet, no frame of it elsewhere.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
} as const;

/**
 * A failed checkout as the page a shopper's browser shows instead of raw JSON:
 * the same status and message the JSON error carries (written for the browser:
 * never a key, never the server's details), and a way back to the shop.
 */
function failurePage(headers: NeutralHeaders): ErrorRender {
  return (status, error, extraHeaders = {}) => {
    const reference = error.traceId ? `<p>Reference: <code>${escapeHtml(error.traceId)}</code></p>` : '';
    const body =
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>Payment could not start</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>' +
      `<body><main><h1>Payment could not start</h1><p id="message">${escapeHtml(error.message)}</p>` +
      `<p><a id="back" href="${escapeHtml(backLink(headers))}">Back to the shop</a></p>` +
      `${reference}<p><small>${escapeHtml(error.code)}</small></p></main></body></html>\n`;
    return { status, headers: { ...extraHeaders, ...PAGE_HEADERS }, body };
  };
}

/** How POST /checkout answers a failure: a page for a shopper's browser form post, the JSON error for everyone else. */
export function checkoutFailureRender(req: NeutralRequest): ErrorRender {
  return isBrowserFormPost(req.headers) ? failurePage(req.headers) : errorResponse;
}
