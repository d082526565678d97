import { PaymentApiError, PaymentError, WebhookVerificationError, type WebhookFailureReason } from '../errors';
import type { Logger } from '../logger';
import { PaymentRouteError } from './route-error';

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
