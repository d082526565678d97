import type { Context, Next } from 'koa';
import { createPaymentRoutes, type AdapterOptionKinds, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { normalizeMountPath, pathUnderMount, toNeutralRequest, type NeutralResponse } from '@paymount/core/http';

/** `resolveOrder` and the event handlers get the Koa `Context` as `ctx.context`. */
export interface PaymentMiddlewareOptions extends PaymentRoutesOptions<Context> {
  /** Serve the routes under this path when mounted on the app, e.g. '/payments'. Default: at the root. */
  mountPath?: string;
}

/** The middleware's own options beside the routes', checked with theirs. */
const KOA_OPTIONS = { mountPath: 'mountPath' } as const satisfies AdapterOptionKinds;

/** Koa middleware serving the payment routes. */
export interface PaymentMiddleware {
  (ctx: Context, next: Next): Promise<void>;
  /** The core routes behind the middleware: `paymentRoutes.client`, `.on(...)`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<Context>;
}

/**
 * Logged when a body parser before the middleware (koa-body, a hand-written
 * one) consumed a body the routes need: in Koa's words, code that compiles as
 * written in a strict TypeScript app (tests/readmes compiles it).
 */
export const KOA_CONSUMED_BODY_FIX =
  'a body parser such as koa-body read the request before the payment middleware and kept no raw bytes, which the webhook signature covers: ' +
  "register the payment middleware first, `app.use(paymentMiddleware({ mountPath: '/payments', ...options }));` above `app.use(koaBody());`, " +
  'or parse with @koa/bodyparser, which keeps the bytes in ctx.request.rawBody where paymount reads them: `app.use(bodyParser());`';

/** What body parsers (e.g. @koa/bodyparser) mounted before paymount leave on the request. */
type ParsedRequest = Context['request'] & { body?: unknown; rawBody?: unknown };

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

/** Builds the middleware around ready routes; `pathOf` says where the request falls among the routes. */
export function servePayments(paymentRoutes: PaymentRoutes<Context>, pathOf: RoutePathOf): PaymentMiddleware {
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    const path = pathOf(ctx);
    const request = ctx.request as ParsedRequest;
    const response =
      path === undefined
        ? undefined
        : await paymentRoutes.handle(
            toNeutralRequest(ctx.req, {
              path,
              bodyParser: { rawBody: request.rawBody, body: request.body },
              context: ctx,
              consumedBodyFix: KOA_CONSUMED_BODY_FIX,
              limitBytes: paymentRoutes.readLimitBytes,
            }),
          );
    if (response === undefined) return next();
    respond(ctx, response);
  };
  return Object.assign(middleware, { paymentRoutes });
}

/** `app.use(paymentMiddleware({ mountPath: '/payments', ...options }))`. */
export function paymentMiddleware(options: PaymentMiddlewareOptions): PaymentMiddleware {
  return servePayments(createPaymentRoutes(options, KOA_OPTIONS), underMountPath(options.mountPath));
}
