import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { createFetchHandler, createPaymentRoutes, createRedactingLogger, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, optionsUnavailableResponse, routesOnFirstUse } from '@paymount/core/http';
import { mountPathOf, SPLAT_FIX } from './mount-path';

/** What React Router hands a loader or an action (`request`, `params`, `context`): the routes' hooks get it as `ctx.context`. */
export type PaymentRouteArgs = LoaderFunctionArgs | ActionFunctionArgs;

/** The routes' options, with `resolveOrder` and the event handlers given the loader's or action's args as `ctx.context`. */
export type PaymentRouteOptions = PaymentRoutesOptions<PaymentRouteArgs>;

/**
 * Makes the options from the first payment request's args: where the settings
 * exist only once a request arrives (`context.cloudflare.env` on Cloudflare
 * Workers), or take a start that is awaited (the embedded sandbox). May be async.
 */
export type PaymentRouteOptionsFactory = (args: PaymentRouteArgs) => PaymentRouteOptions | Promise<PaymentRouteOptions>;

/**
 * A resource route's exports. React Router's build cannot remove a
 * destructured export from the client bundle, so the route file exports each
 * on its own line: `export const loader = payments.loader;`.
 */
export interface PaymentRouteExports {
  /** Serves `GET` and `HEAD`: the wallet configuration, the order's status. */
  loader(args: LoaderFunctionArgs): Promise<Response>;
  /** Serves `POST` (and answers other methods): checkout, wallet payment, webhook. */
  action(args: ActionFunctionArgs): Promise<Response>;
}

/** The route of an options object. */
export interface PaymentRoute extends PaymentRouteExports {
  /** The core routes behind the route: `paymentRoutes.client`, `.on(...)`, `.reconcile()`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<PaymentRouteArgs>;
}

/** The route of `paymentRoute((args) => options)`. */
export interface PaymentRouteOnFirstRequest extends PaymentRouteExports {
  /**
   * The core routes behind the route (`.client`, `.on(...)`, `.reconcile()`,
   * `.close()`): those the first request made, or made now from `args` if no
   * request has yet. In a loader of your own: `(await payments.getPaymentRoutes(args)).client`.
   */
  getPaymentRoutes(args: PaymentRouteArgs): Promise<PaymentRoutes<PaymentRouteArgs>>;
}

/** Logged with BODY_ALREADY_CONSUMED: how a React Router app leaves the bytes to the payment route. */
const CONSUMED_BODY_FIX =
  'something before the payment route read the request body (a middleware or the server entry calling `await request.formData()`, `await request.json()` or `await request.text()`), ' +
  'and the webhook signature covers the exact bytes, which paymount must read itself: have it read a copy, `await request.clone().formData()`, ' +
  "or skip the payment routes, `if (new URL(request.url).pathname.startsWith('/payments/')) return next();`";

const OPTIONS_FIX =
  'fix what the error names (on a deployment, often an environment variable or a Cloudflare secret it lacks); the next request calls the options function again';

// A misplaced route is logged before any options are at hand: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

/** A path under the route that is no payment route: the 404 a resource route answers with. */
function notFound(): Response {
  return new Response('Not Found', { status: 404, statusText: 'Not Found', headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** The loader and action serving the routes `routesFor` gives for a request, at the mount read from its splat. */
function routeExports(routesFor: (args: PaymentRouteArgs) => PaymentRoutes<PaymentRouteArgs> | Promise<PaymentRoutes<PaymentRouteArgs>>): PaymentRouteExports {
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
    let paymentRoutes: PaymentRoutes<PaymentRouteArgs>;
    try {
      paymentRoutes = await routesFor(args);
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentRoute((args) => options)', fix: OPTIONS_FIX });
    }
    // Cheap to make: the routes are made once, the handler only holds them with this request's mount.
    const handle = createFetchHandler(paymentRoutes, { mountPath, notFound, consumedBodyFix: CONSUMED_BODY_FIX });
    return handle(request, { context: args });
  };
  return { loader: serve, action: serve };
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
 *
 * `paymentRoute((args) => options)` makes the options on the first payment
 * request instead, with its args, and keeps the routes for every later one;
 * while it throws, or its options are refused, the routes answer `500` and
 * log why, and the next request calls it again.
 */
export function paymentRoute(options: PaymentRouteOptionsFactory): PaymentRouteOnFirstRequest;
// Last, so `ReturnType<typeof paymentRoute>` stays the route of an options object.
export function paymentRoute(options: PaymentRouteOptions): PaymentRoute;
export function paymentRoute(options: PaymentRouteOptions | PaymentRouteOptionsFactory): PaymentRoute | PaymentRouteOnFirstRequest {
  if (typeof options === 'function') {
    const routesFor = routesOnFirstUse(options);
    return { ...routeExports(routesFor), getPaymentRoutes: routesFor };
  }
  const paymentRoutes = createPaymentRoutes(options);
  return { ...routeExports(() => paymentRoutes), paymentRoutes };
}
