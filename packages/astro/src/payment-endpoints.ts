import type { APIContext, APIRoute } from 'astro';
import { createFetchHandler, createRedactingLogger, type FetchHandler, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, optionsUnavailableResponse, routesOnFirstUse } from '@paymount/core/http';
import { mountPathOf, REST_PARAMETER_FIX } from './mount-path';

/** The routes' options, with `resolveOrder` and the event handlers given Astro's `APIContext` as `ctx.context`. */
export type PaymentEndpointsOptions = PaymentRoutesOptions<APIContext>;

/**
 * Makes the options from the first payment request's `APIContext`: settings
 * that exist only once a request arrives (`context.locals.runtime.env` on
 * Cloudflare) or that `astro build` must not need. May be async.
 */
export type PaymentEndpointsOptionsFactory = (context: APIContext) => PaymentEndpointsOptions | Promise<PaymentEndpointsOptions>;

/** The endpoint file's exports: `export const { GET, POST, HEAD, ALL } = paymentEndpoints(options)`. */
export interface PaymentEndpoints {
  GET: APIRoute;
  POST: APIRoute;
  HEAD: APIRoute;
  /** Every other method, so the routes answer it `405` with their `Allow` rather than Astro's bare `404`. */
  ALL: APIRoute;
  /**
   * The core routes behind the endpoints (`.client`, `.on()`, `.reconcile()`,
   * `.cancelCheckout()`, `.close()`): those the first request made, or made
   * now from `context`. In an endpoint of your own: `(await getPaymentRoutes(context)).client`.
   */
  getPaymentRoutes(context: APIContext): Promise<PaymentRoutes<APIContext>>;
}

// The options' logger is unknown when the route is misplaced: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

const OPTIONS_FIX =
  'fix what the error names (on a deployment, often an environment variable the server lacks); the next payment request calls the options function again';

/** Logged with BODY_ALREADY_CONSUMED: how an Astro app keeps its middleware from taking the bytes a webhook signature covers. */
const ASTRO_CONSUMED_BODY_FIX =
  'a middleware (src/middleware.ts) read the request body before the payment endpoints (`await context.request.json()`, `.text()`, `.formData()`), and the webhook signature covers the exact bytes: ' +
  "read a copy there, `await context.request.clone().json()`, or skip the payment paths: `if (context.url.pathname.startsWith('/payments/')) return next();`";

/** What Astro itself answers a request its endpoint does not serve: a bare 404 (no body, so its own 404 page is not rendered for it). */
const notFound = (): Response => new Response(null, { status: 404 });

/**
 * Astro endpoints serving the payment routes, for an on-demand rendered
 * (`export const prerender = false`) rest-parameter route:
 * `src/pages/payments/[...paymount].ts` serves `/payments/checkout` and the
 * others. The mount path is where the file sits, `base` included.
 *
 * Pass the options, or a function making them from the first payment
 * request's `APIContext` (kept for every later request; called again on the
 * next request while it throws or its options are refused, the routes
 * answering `500` and logging why meanwhile). Uses only the Fetch API: runs on
 * every SSR adapter.
 */
export function paymentEndpoints(options: PaymentEndpointsOptions | PaymentEndpointsOptionsFactory): PaymentEndpoints {
  const getPaymentRoutes = routesOnFirstUse(typeof options === 'function' ? options : () => options);
  let fetchHandler: { mountPath: string; handle: FetchHandler<APIContext> } | undefined;

  const serve: APIRoute = async (context) => {
    const { request, url, routePattern, params } = context;
    const mountPath = mountPathOf(url.pathname, routePattern, params);
    if (mountPath === undefined) {
      log.error({ route: `${request.method} ${url.pathname}`, pattern: routePattern, fix: REST_PARAMETER_FIX }, 'paymount endpoints are not on a rest-parameter route');
      return internalErrorResponse();
    }
    let routes: PaymentRoutes<APIContext>;
    try {
      routes = await getPaymentRoutes(context);
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentEndpoints(options)', fix: OPTIONS_FIX });
    }
    // One endpoint file has one mount path; rebuilt only if the same endpoints are exported from another file.
    if (fetchHandler?.mountPath !== mountPath) {
      fetchHandler = { mountPath, handle: createFetchHandler(routes, { mountPath, notFound, consumedBodyFix: ASTRO_CONSUMED_BODY_FIX }) };
    }
    return fetchHandler.handle(request, { context });
  };

  return { GET: serve, POST: serve, HEAD: serve, ALL: serve, getPaymentRoutes };
}
