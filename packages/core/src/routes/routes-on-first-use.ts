import { PaymentErrorCode } from '../error-codes';
import { createRedactingLogger } from '../logger';
import { createPaymentRoutes } from './create-payment-routes';
import { errorResponse, GENERIC_MESSAGE } from './errors-to-response';
import { toFetchResponse } from './fetch-handler';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';

/**
 * Payment routes whose options exist only once a request arrives (a Worker's
 * `env`, secrets `next build` must not need): made by the first call, shared
 * by concurrent first calls, then kept. A factory that threw, or gave options
 * that are refused, is asked again by the next call.
 */
export function routesOnFirstUse<Args extends unknown[], Ctx>(
  factory: (...args: Args) => PaymentRoutesOptions<Ctx> | Promise<PaymentRoutesOptions<Ctx>>,
): (...args: Args) => Promise<PaymentRoutes<Ctx>> {
  let routes: Promise<PaymentRoutes<Ctx>> | undefined;
  return (...args) => {
    if (routes) return routes;
    const made = (async () => createPaymentRoutes(await factory(...args)))();
    made.catch(() => {
      if (routes === made) routes = undefined;
    });
    return (routes = made);
  };
}

// The options' logger is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

/** What a shopper sees of a failure on the server: nothing of its cause, which goes to the log. */
export function internalErrorResponse(): Response {
  return toFetchResponse(errorResponse(500, { code: PaymentErrorCode.INTERNAL_ERROR, message: GENERIC_MESSAGE }));
}

/**
 * The answer of every payment route while its options cannot be made: a 500
 * without detail (the service retries a webhook), and in the log the error,
 * which names the setting, with `fix` in the words of the place options come from.
 */
export function optionsUnavailableResponse(error: unknown, how: { madeBy: string; fix: string }): Response {
  log.error({ err: error, fix: how.fix }, `paymount payment route options could not be made by ${how.madeBy}, so no payment route can answer`);
  return internalErrorResponse();
}
