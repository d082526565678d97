import type { Context, Middleware } from 'koa';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { normalizeMountPath } from '@paymount/core/http';
import { servePayments } from './payment-middleware';

/** The part of a @koa/router Router this needs (structural, so the package does not depend on the router). */
export interface RouterLike {
  all(path: string, ...middleware: Middleware[]): unknown;
}

/**
 * Mounts the payment routes on a @koa/router Router at `path`, relative to
 * the router's own prefix: `mountPaymentRoutes(router, '/payments', options)`.
 * Each route is registered by its literal path, which every router version
 * reads alike (their path-to-regexp syntaxes differ on patterns), and router
 * prefixes and nesting need no extra setting.
 */
export function mountPaymentRoutes(
  router: RouterLike,
  path: string,
  options: PaymentRoutesOptions<Context>,
): { readonly paymentRoutes: PaymentRoutes<Context> } {
  const paymentRoutes = createPaymentRoutes(options);
  const base = normalizeMountPath(path);
  for (const route of paymentRoutes.routePaths) router.all(`${base}${route}`, servePayments(paymentRoutes, () => route));
  return { paymentRoutes };
}
