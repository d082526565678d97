import { createFetchHandler, createRedactingLogger, type FetchHandler, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, optionsUnavailableResponse, pathUnderMount, routesOnFirstUse } from '@paymount/core/http';
import { mountPathOf, SPLAT_FIX, type PaymentRouteParams } from './mount-path';

/** What TanStack Start passes a server route's method handler: it reaches `resolveOrder` and the event handlers as `ctx.context`. */
export interface PaymentHandlerContext {
  request: Request;
  params: PaymentRouteParams;
  /** What the server middleware before the route put in the context. */
  context?: unknown;
}

/** The handler options, with `resolveOrder` and the event handlers given the server route's handler argument as `ctx.context`. */
export type PaymentHandlersOptions = PaymentRoutesOptions<PaymentHandlerContext>;

export type PaymentHandler = (handlerContext: PaymentHandlerContext) => Promise<Response>;

/** The server route's methods: `createServerFileRoute('/payments/$').methods(paymentHandlers(() => options))`. */
export interface PaymentHandlers {
  GET: PaymentHandler;
  HEAD: PaymentHandler;
  POST: PaymentHandler;
  // The methods no payment route takes are answered 405 with `Allow` by the routes, not by the app's page router.
  PUT: PaymentHandler;
  PATCH: PaymentHandler;
  DELETE: PaymentHandler;
  OPTIONS: PaymentHandler;
}

/** The core routes behind the handlers, beside them and not among the methods TanStack Start reads. */
export interface PaymentHandlersWithRoutes {
  methods: PaymentHandlers;
  /**
   * The core routes (`.client`, `.on()`, `.reconcile()`, `.cancelCheckout()`,
   * `.close()`), created on first use: by the first request, or by this call.
   */
  getPaymentRoutes(): Promise<PaymentRoutes<PaymentHandlerContext>>;
}

// The logger of the options is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

const OPTIONS_FIX = 'fix the options (the error names the setting: on a deployment, often an environment variable it lacks); the next request tries again';

const CONSUMED_BODY_FIX =
  "a TanStack Start request middleware (createMiddleware({ type: 'request' }), registered in src/start.ts) read the request body before the payment server route: read request.clone() there, or skip the payment route's paths";

/**
 * TanStack Start server route handlers serving the payment routes. `options`
 * is called on the first request (or `getPaymentRoutes()`), never while
 * `vite build` loads the route, so the build needs none of the secrets it
 * reads; it is called once, or again on the next request if it threw. The
 * mount path is where the route file sits: it must be a splat route,
 * `src/routes/payments/$.ts` serving `/payments/checkout` and the others.
 */
export function paymentHandlers(
  options: () => PaymentHandlersOptions | Promise<PaymentHandlersOptions>,
): PaymentHandlersWithRoutes {
  const getPaymentRoutes = routesOnFirstUse(options);
  let fetchHandler: { mountPath: string; handle: FetchHandler<PaymentHandlerContext> } | undefined;

  const serve: PaymentHandler = async (handlerContext) => {
    const { request } = handlerContext;
    const { pathname } = new URL(request.url);
    // TanStack Start's router decodes the path before matching (`/pay%6dents/checkout` reaches `/payments/$`): a path with an
    // escape, a dot segment or a doubled slash is given the root as its mount, where the routes refuse it with a 404, running nothing.
    const mountPath = pathUnderMount(pathname, '') === undefined ? '' : mountPathOf(pathname, handlerContext.params);
    if (mountPath === undefined) {
      log.error({ route: `${request.method} ${pathname}`, fix: SPLAT_FIX }, 'paymount server route handlers are not on a splat route');
      return internalErrorResponse();
    }
    let ready: PaymentRoutes<PaymentHandlerContext>;
    try {
      ready = await getPaymentRoutes();
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentHandlers(() => options)', fix: OPTIONS_FIX });
    }
    // One route file has one mount path; rebuilt only if the same handlers serve another file's route.
    if (fetchHandler?.mountPath !== mountPath) {
      fetchHandler = { mountPath, handle: createFetchHandler(ready, { mountPath, consumedBodyFix: CONSUMED_BODY_FIX }) };
    }
    return fetchHandler.handle(request, { context: handlerContext });
  };

  return {
    methods: { GET: serve, HEAD: serve, POST: serve, PUT: serve, PATCH: serve, DELETE: serve, OPTIONS: serve },
    getPaymentRoutes,
  };
}
