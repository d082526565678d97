import type { NextRequest } from 'next/server.js';
import { createFetchHandler, createRedactingLogger, type FetchHandler, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, optionsUnavailableResponse, routesOnFirstUse } from '@paymount/core/http';
import { CATCH_ALL_FIX, mountPathOf, type PaymentRouteParams } from './mount-path';

/** The handler options, with `resolveOrder` and the event handlers given the `NextRequest` as `ctx.context`. */
export type PaymentRouteHandlersOptions = PaymentRoutesOptions<NextRequest>;

/** What Next.js passes a route handler beside the request. */
export interface PaymentRouteContext {
  params?: Promise<PaymentRouteParams>;
}

export type PaymentRouteHandler = (request: NextRequest, context: PaymentRouteContext) => Promise<Response>;

/** The route file's exports: `export const { GET, POST, HEAD } = paymentRouteHandlers(() => options)`. */
export interface PaymentRouteHandlers {
  GET: PaymentRouteHandler;
  POST: PaymentRouteHandler;
  HEAD: PaymentRouteHandler;
  /**
   * The core routes behind the handlers (`.client`, `.on()`, `.reconcile()`,
   * `.cancelCheckout()`, `.close()`), created on first use: by the first
   * request, or by this call.
   */
  getPaymentRoutes(): Promise<PaymentRoutes<NextRequest>>;
}

// The logger of the options is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

const OPTIONS_FIX = 'fix the options (the error names the setting: on a deployment, often an environment variable it lacks); the next request tries again';

/**
 * Next.js App Router route handlers serving the payment routes. `options` is
 * called on the first request (or `getPaymentRoutes()`), never while `next build`
 * loads the route, so the build needs none of the secrets it reads; it is
 * called once, or again on the next request if it threw. The mount path is
 * where the route file sits: it must be a catch-all segment,
 * `app/payments/[...paymount]/route.ts` serving `/payments/checkout` and the
 * others. Uses only the Fetch API: runs on the Node and the edge runtime.
 */
export function paymentRouteHandlers(
  options: () => PaymentRouteHandlersOptions | Promise<PaymentRouteHandlersOptions>,
): PaymentRouteHandlers {
  const getPaymentRoutes = routesOnFirstUse(options);
  let fetchHandler: { mountPath: string; handle: FetchHandler<NextRequest> } | undefined;

  const serve: PaymentRouteHandler = async (request, context) => {
    // The path the fetch handler routes on (basePath included, unlike nextUrl's); a route without dynamic segments gets no params.
    const { pathname } = new URL(request.url);
    const mountPath = mountPathOf(pathname, (await context?.params) ?? {});
    if (mountPath === undefined) {
      log.error({ route: `${request.method} ${pathname}`, fix: CATCH_ALL_FIX }, 'paymount route handlers are not on a catch-all route');
      return internalErrorResponse();
    }
    let ready: PaymentRoutes<NextRequest>;
    try {
      ready = await getPaymentRoutes();
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentRouteHandlers(() => options)', fix: OPTIONS_FIX });
    }
    // One route file has one mount path; rebuilt only if the same handlers are exported from another file.
    if (fetchHandler?.mountPath !== mountPath) fetchHandler = { mountPath, handle: createFetchHandler(ready, { mountPath }) };
    return fetchHandler.handle(request);
  };

  return { GET: serve, POST: serve, HEAD: serve, getPaymentRoutes };
}
