import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { createFetchHandler, createPaymentRoutes, createRedactingLogger, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse } from '@paymount/core/http';
import { mountPathOf, SPLAT_FIX } from './mount-path';

/** What React Router hands a loader or an action (`request`, `params`, `context`): the routes' hooks get it as `ctx.context`. */
export type PaymentRouteArgs = LoaderFunctionArgs | ActionFunctionArgs;

/** The routes' options, with `resolveOrder` and the event handlers given the loader's or action's args as `ctx.context`. */
export type PaymentRouteOptions = PaymentRoutesOptions<PaymentRouteArgs>;

/**
 * A resource route's exports. React Router's build cannot remove a
 * destructured export from the client bundle, so the route file exports each
 * on its own line: `export const loader = payments.loader;`.
 */
export interface PaymentRoute {
  /** Serves `GET` and `HEAD`: the wallet configuration, the order's status. */
  loader(args: LoaderFunctionArgs): Promise<Response>;
  /** Serves `POST` (and answers other methods): checkout, wallet payment, webhook. */
  action(args: ActionFunctionArgs): Promise<Response>;
  /** The core routes behind the route: `paymentRoutes.client`, `.on(...)`, `.reconcile()`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<PaymentRouteArgs>;
}

/** Logged with BODY_ALREADY_CONSUMED: how a React Router app leaves the bytes to the payment route. */
const CONSUMED_BODY_FIX =
  'something before the payment route read the request body (a middleware or the server entry calling `await request.formData()`, `await request.json()` or `await request.text()`), ' +
  'and the webhook signature covers the exact bytes, which paymount must read itself: have it read a copy, `await request.clone().formData()`, ' +
  "or skip the payment routes, `if (new URL(request.url).pathname.startsWith('/payments/')) return next();`";

/** A path under the route that is no payment route: the 404 a resource route answers with. */
function notFound(): Response {
  return new Response('Not Found', { status: 404, statusText: 'Not Found', headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * The payment routes as a React Router resource route, for a splat route
 * (`route('payments/*', 'routes/payments.$.ts')` in `app/routes.ts`):
 *
 * ```ts
 * const payments = paymentRoute(options);
 * export const loader = payments.loader;
 * export const action = payments.action;
 * ```
 *
 * The mount path is where the route sits, read from the splat. `resolveOrder`
 * and the event handlers get the loader's or action's args (`request`,
 * `params`, `context`) as `ctx.context`. Uses only the Fetch API: runs on
 * every runtime React Router serves from.
 */
export function paymentRoute(options: PaymentRouteOptions): PaymentRoute {
  const paymentRoutes = createPaymentRoutes(options);
  // A misplaced route is the merchant's to fix: told in the app's own log.
  const log = createRedactingLogger(options.logger);
  const serve = async (args: PaymentRouteArgs): Promise<Response> => {
    const { request, params } = args;
    const splat = params['*'];
    const { pathname } = new URL(request.url);
    if (splat === undefined) {
      log.error({ route: `${request.method} ${pathname}`, fix: SPLAT_FIX }, 'the paymount loader and action are not on a splat route');
      return internalErrorResponse();
    }
    const mountPath = splat === '' ? undefined : mountPathOf(pathname, splat);
    if (mountPath === undefined) return notFound();
    const handle = createFetchHandler(paymentRoutes, { mountPath, notFound, consumedBodyFix: CONSUMED_BODY_FIX });
    return handle(request, { context: args });
  };
  return { loader: serve, action: serve, paymentRoutes };
}
