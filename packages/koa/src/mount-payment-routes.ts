import type { Context, Middleware } from 'koa';
import { createPaymentHandlers, type PaymentHandlersOptions } from '@paymount/core';
import { servePayments, type PaymentMiddleware } from './payment-middleware';

/** The part of a @koa/router Router this needs (structural, so the package does not depend on the router). */
export interface RouterLike {
  all(path: string, ...middleware: Middleware[]): unknown;
}

/** Name of the route parameter holding the path below the mount point. */
const REST = 'paymountRoute';

/**
 * Mounts the payment routes on a @koa/router Router at `path`, relative to
 * the router's own prefix: `mountPaymentRoutes(router, '/payments', options)`.
 * The route path is read from the router's match, so router prefixes and
 * nesting need no extra setting.
 */
export function mountPaymentRoutes(router: RouterLike, path: string, options: PaymentHandlersOptions): PaymentMiddleware {
  const middleware = servePayments(createPaymentHandlers(options), (ctx: Context) => {
    const rest: unknown = (ctx as Context & { params?: Record<string, unknown> }).params?.[REST];
    return typeof rest === 'string' ? `/${rest}` : undefined;
  });
  // `(.*)` is path-to-regexp 6 syntax; routers on path-to-regexp 8 (@koa/router 13.0, and 14 on) refuse it when mounting.
  router.all(`${path.replace(/\/+$/, '')}/:${REST}(.*)`, middleware);
  return middleware;
}
