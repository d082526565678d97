import type { RequestEvent } from '@sveltejs/kit';
import { createFetchHandler, createRedactingLogger, type FetchHandler, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, normalizeMountPath, optionsUnavailableResponse, routesOnFirstUse } from '@paymount/core/http';
import { BASE_FIX, mountPathOfRoute, ROUTE_FIX, routedUnder } from './route-mount';

/** The handler options, with `resolveOrder` and the event handlers given SvelteKit's `RequestEvent` as `ctx.context`. */
export type PaymentHandlersOptions = PaymentRoutesOptions<RequestEvent>;

/** The adapter's own settings. */
export interface PaymentHandlersSettings {
  /**
   * Where the routes are mounted, as the browser sends the path (`${base}/payments`
   * with `kit.paths.base`). Default: read from the route's id, the segments before
   * its rest parameter (`/payments` for `src/routes/payments/[...paymount]/+server.ts`).
   */
  mountPath?: string;
}

/** An endpoint handler of a `+server.ts`. */
export type PaymentHandler = (event: RequestEvent) => Promise<Response>;

/** The `+server.ts` exports: `export const { GET, POST, HEAD, fallback, trailingSlash } = paymentHandlers(options)`. */
export interface PaymentHandlers {
  GET: PaymentHandler;
  POST: PaymentHandler;
  HEAD: PaymentHandler;
  /** Every other method: the routes answer `405` with their `Allow`. */
  fallback: PaymentHandler;
  /**
   * `'ignore'`: SvelteKit hands every path to the routes as sent, so a payment
   * path with a trailing or doubled slash is answered `404` by the routes (as on
   * every adapter) instead of redirected by SvelteKit to a spelling of its choosing.
   */
  trailingSlash: 'ignore';
  /**
   * The core routes behind the handlers (`.client`, `.on()`, `.reconcile()`,
   * `.cancelCheckout()`, `.close()`), created on first use: by the first
   * request, or by this call.
   */
  getPaymentRoutes(): Promise<PaymentRoutes<RequestEvent>>;
}

// The logger of the options is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

/** Logged with BODY_ALREADY_CONSUMED: how a SvelteKit app keeps the bytes the webhook signature covers. */
const SVELTEKIT_CONSUMED_BODY_FIX =
  'a `handle` hook in src/hooks.server.ts read `event.request` before the payment routes (`await event.request.json()`, `.text()`, `.formData()`), ' +
  'and the webhook signature covers the exact bytes: have the hook read a copy, `await event.request.clone().text()`, ' +
  "or leave the payment paths alone: `if (event.url.pathname.startsWith('/payments/')) return resolve(event);`";

const OPTIONS_FIX =
  'fix the options (the error names the setting: on a deployment, often a variable of `$env/dynamic/private` it lacks); the next request tries again';

/**
 * SvelteKit endpoint handlers serving the payment routes from one
 * rest-parameter route: in `src/routes/payments/[...paymount]/+server.ts`,
 * `export const { GET, POST, HEAD, fallback, trailingSlash } = paymentHandlers(options)`
 * serves `/payments/checkout` and the others. The routes are made on the first
 * request (or `getPaymentRoutes()`), never while `vite build` loads the route
 * to analyse it: pass a function to read settings then, from
 * `$env/dynamic/private`; it may be async, and is called again on the next
 * request if it threw. Uses only the Fetch API: runs on every adapter's runtime.
 */
export function paymentHandlers(
  options: PaymentHandlersOptions | (() => PaymentHandlersOptions | Promise<PaymentHandlersOptions>),
  settings: PaymentHandlersSettings = {},
): PaymentHandlers {
  const getPaymentRoutes = routesOnFirstUse(typeof options === 'function' ? options : () => options);
  const givenMount = settings.mountPath === undefined ? undefined : normalizeMountPath(settings.mountPath);
  let fetchHandler: { mountPath: string; handle: FetchHandler<RequestEvent> } | undefined;

  const serve: PaymentHandler = async (event) => {
    const mountPath = givenMount ?? mountPathOfRoute(event.route.id);
    const route = `${event.request.method} ${event.url.pathname}`;
    if (mountPath === undefined) {
      log.error({ route, routeId: event.route.id, fix: ROUTE_FIX }, 'paymount payment handlers cannot read their mount path from this route');
      return internalErrorResponse();
    }
    if (!routedUnder(event.url.pathname, mountPath)) {
      log.error({ route, mountPath, fix: BASE_FIX }, 'paymount payment handlers serve a path outside their mount path');
      return internalErrorResponse();
    }
    let ready: PaymentRoutes<RequestEvent>;
    try {
      ready = await getPaymentRoutes();
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentHandlers(options)', fix: OPTIONS_FIX });
    }
    // One route file has one mount path; rebuilt only if the same handlers are exported from another route.
    if (fetchHandler?.mountPath !== mountPath) {
      fetchHandler = { mountPath, handle: createFetchHandler(ready, { mountPath, consumedBodyFix: SVELTEKIT_CONSUMED_BODY_FIX }) };
    }
    return fetchHandler.handle(event.request, { context: event });
  };

  return { GET: serve, POST: serve, HEAD: serve, fallback: serve, trailingSlash: 'ignore', getPaymentRoutes };
}
