import type { Context, Next } from 'koa';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { normalizeMountPath, pathUnderMount, toNeutralRequest, type NeutralResponse } from '@paymount/core/http';

/** `resolveOrder` and the event handlers get the Koa `Context` as `ctx.context`. */
export interface PaymentMiddlewareOptions extends PaymentRoutesOptions<Context> {
  /** Serve the routes under this path when mounted on the app, e.g. '/payments'. Default: at the root. */
  mountPath?: string;
  /** @deprecated The old name of `mountPath`, the name every paymount package uses; `mountPath` wins when both are set. */
  prefix?: string;
}

/** Koa middleware serving the payment routes. */
export interface PaymentMiddleware {
  (ctx: Context, next: Next): Promise<void>;
  /** The core handlers behind the routes: `handlers.client`, `handlers.on(...)`, `handlers.close()`. */
  readonly handlers: PaymentRoutes<Context>;
}

/** What body parsers (e.g. @koa/bodyparser) mounted before paymount leave on the request. */
type ParsedRequest = Context['request'] & { body?: unknown; rawBody?: string };

/** Where a request falls among the payment routes, or undefined when it is not under them. */
export type RoutePathOf = (ctx: Context) => string | undefined;

function underMountPath(mountPath: string | undefined): RoutePathOf {
  const base = normalizeMountPath(mountPath);
  return (ctx) => pathUnderMount(ctx.path, base);
}

function respond(ctx: Context, response: NeutralResponse): void {
  // Status first: Koa otherwise turns an assigned body into a 200.
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body;
}

/** Builds the middleware around ready handlers; `pathOf` says where the request falls among the routes. */
export function servePayments(handlers: PaymentRoutes<Context>, pathOf: RoutePathOf): PaymentMiddleware {
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    const path = pathOf(ctx);
    const request = ctx.request as ParsedRequest;
    const response =
      path === undefined
        ? undefined
        : await handlers.handle(
            toNeutralRequest(ctx.req, {
              path,
              // A body parser that ran first consumed the stream; @koa/bodyparser keeps the exact text as rawBody.
              parsedBody: ctx.req.readableEnded ? (request.rawBody ?? request.body) : undefined,
              context: ctx,
              limitBytes: handlers.bodyLimitBytes,
            }),
          );
    if (response === undefined) return next();
    respond(ctx, response);
  };
  return Object.assign(middleware, { handlers });
}

/** `app.use(paymentMiddleware({ mountPath: '/payments', ...options }))`. */
export function paymentMiddleware({ mountPath, prefix, ...options }: PaymentMiddlewareOptions): PaymentMiddleware {
  return servePayments(createPaymentRoutes(options), underMountPath(mountPath ?? prefix));
}
