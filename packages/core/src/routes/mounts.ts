// The routes on a fetch handler, a Node middleware, or made on first use.
import { errorResponse, GENERIC_MESSAGE, notFoundResponse } from '../http/error-answers';
import { isPaymentRoutes, normalizeMountPath, pathUnderMount, rawPathOf } from '../http/neutral-http';
import { type IncomingMessage, type ServerResponse, serveNodeRequest, writeNeutralResponse } from '../platform/node/http-bridge';
import { neutralOf, toFetchResponse } from '../platform/web';
import { PaymentErrorCode } from '../shared/errors';
import { createRedactingLogger } from '../shared/logger';
import { createPaymentRoutes } from './create-payment-routes';
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

export interface FetchHandlerOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
  /** Answers requests that are not payment routes. Default a JSON 404. */
  notFound?: (request: Request) => Response | Promise<Response>;
  /**
   * How to stop whatever runs before the routes from reading the body, in the
   * words of the framework serving them (its hook, middleware or parser):
   * logged with `BODY_ALREADY_CONSUMED`. Default: the fix for a fetch middleware.
   */
  consumedBodyFix?: string;
}

/** What a framework hands the routes with each request. */
export interface FetchRequestContext<TContext = unknown> {
  /** `ctx.context` of `resolveOrder` and the event handlers: the framework's own request event. Default: the `Request`. */
  context?: TContext;
  /** The exact bytes (or their text) the framework kept of a body it already read: the routes read these instead of the stream. */
  keptBody?: Uint8Array | string;
}

export type FetchHandler<TContext = unknown> = ((request: Request, perRequest?: FetchRequestContext<TContext>) => Promise<Response>) & {
  paymentRoutes: PaymentRoutes<TContext>;
};

/** The routes a mount was given, or made from the options it was given. */
function routesOf<TContext>(routesOrOptions: PaymentRoutes<TContext> | PaymentRoutesOptions<TContext>): PaymentRoutes<TContext> {
  return isPaymentRoutes<PaymentRoutes<TContext>>(routesOrOptions) ? routesOrOptions : createPaymentRoutes(routesOrOptions);
}

/**
 * The payment routes as a fetch-style `(Request) => Promise<Response>`, for
 * servers and runtimes built on the Fetch API, and the one base of every
 * full-stack framework's adapter: it hands its own request event as
 * `perRequest.context`.
 *
 * A `Request`'s URL was parsed before the app saw it, so its dot segments and
 * backslashes are already resolved: the path routed on is the one the
 * runtime, the app's router and any guard before the routes all saw. What
 * parsing leaves ambiguous (doubled slashes, percent-escapes) is refused by
 * `pathUnderMount`, as on every adapter.
 */
export function createFetchHandler<TContext = unknown>(
  routesOrOptions: PaymentRoutes<TContext> | PaymentRoutesOptions<TContext>,
  options: FetchHandlerOptions = {},
): FetchHandler<TContext> {
  const paymentRoutes = routesOf(routesOrOptions);
  const mountPath = normalizeMountPath(options.mountPath);
  const notFound = options.notFound ?? (() => toFetchResponse(notFoundResponse()));
  const { consumedBodyFix } = options;
  const handle = async (request: Request, perRequest: FetchRequestContext<TContext> = {}): Promise<Response> => {
    const url = new URL(request.url);
    const path = pathUnderMount(url.pathname, mountPath);
    const response =
      path === undefined
        ? undefined
        : await paymentRoutes.handle(
            neutralOf(request, url, {
              path,
              limitBytes: paymentRoutes.readLimitBytes,
              consumedBodyFix,
              context: perRequest.context,
              keptBody: perRequest.keptBody,
            }),
          );
    return response ? toFetchResponse(response, request.method) : notFound(request);
  };
  return Object.assign(handle, { paymentRoutes });
}

export interface NodeMiddlewareOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
}

export type NodeMiddleware = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & {
  paymentRoutes: PaymentRoutes;
};

/**
 * The payment routes for a plain `node:http` server or any connect-style
 * stack, at a fixed `mountPath`. Requests outside the routes go to `next`, or
 * get a JSON 404 when there is none. (In Express, `@paymount/express` reads
 * the mount from Express and the bodies its parsers left.)
 */
export function createNodeMiddleware(
  routesOrOptions: PaymentRoutes | PaymentRoutesOptions,
  options: NodeMiddlewareOptions = {},
): NodeMiddleware {
  const paymentRoutes = routesOf(routesOrOptions);
  const mountPath = normalizeMountPath(options.mountPath);
  const passOn = (res: ServerResponse, next?: (error?: unknown) => void) => {
    if (next) next();
    else writeNeutralResponse(res, notFoundResponse());
  };
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => {
    const path = pathUnderMount(rawPathOf(req.url ?? '/'), mountPath);
    if (path === undefined) return passOn(res, next);
    serveNodeRequest(paymentRoutes, req, res, { path }).then(
      (served) => {
        if (!served) passOn(res, next);
      },
      (error: unknown) => (next ? next(error) : res.destroy(error as Error)),
    );
  };
  return Object.assign(middleware, { paymentRoutes });
}
