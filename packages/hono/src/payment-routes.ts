import { Hono, type Context, type Env } from 'hono';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { rawPathOf, toFetchResponse, toNeutralFetchRequest } from '@paymount/core/http';
import type { BlankEnv } from 'hono/types';
import { keptByHono } from './kept-body';

/** The handler options, with `resolveOrder` and the event handlers given the app's Hono `Context` as `ctx.context`. */
export type PaymentRoutesAppOptions<E extends Env = BlankEnv> = PaymentRoutesOptions<Context<E>>;

/** A Hono app serving the payment routes, to mount with `app.route('/payments', payments)`. */
export type PaymentRoutesApp<E extends Env = BlankEnv> = Hono<E> & {
  /** The core routes behind the app: `paymentRoutes.client`, `.on(...)`, `.reconcile()`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<Context<E>>;
};

/** Logged with BODY_ALREADY_CONSUMED: how a Hono app stops a middleware from taking the bytes away. */
const HONO_CONSUMED_BODY_FIX =
  'a middleware before the payment routes read the body in a way that keeps no bytes (`await c.req.raw.json();`, `await c.req.raw.text();`, a reader on `c.req.raw.body`, ' +
  '`await c.req.formData();`), and the webhook signature covers the exact bytes: have it read the body with `await c.req.text();`, `await c.req.arrayBuffer();`, `await c.req.json();` ' +
  "or `await c.req.parseBody();` (Hono keeps those bytes and paymount reads them), or register the payment routes before it: `app.route('/payments', paymentRoutes(options));`";

/**
 * The payment routes as a Hono app: `app.route('/payments', paymentRoutes(options))`,
 * under any path or `basePath`. Each route is registered by its literal path,
 * so every other path (and a guard's `app.use('/payments/checkout', ...)`)
 * stays the app's. Free of Node APIs: it runs wherever Hono does.
 */
export function paymentRoutes<E extends Env = BlankEnv>(options: PaymentRoutesAppOptions<E>): PaymentRoutesApp<E> {
  const routes = createPaymentRoutes(options);
  const app = new Hono<E>();
  for (const route of routes.routePaths) {
    app.all(route, async (c, next) => {
      // Hono routes on the decoded path (`/payments/%63heckout` reaches `/checkout`): only the route spelled plainly is served.
      if (!rawPathOf(c.req.url).endsWith(route)) return next();
      const keptBody = await keptByHono(c.req);
      const request = toNeutralFetchRequest(c.req.raw, {
        path: route,
        context: c,
        limitBytes: routes.bodyLimitBytes,
        consumedBodyFix: HONO_CONSUMED_BODY_FIX,
        ...(keptBody === undefined ? {} : { keptBody }),
      });
      const response = await routes.handle(request);
      return response === undefined ? next() : toFetchResponse(response, c.req.method);
    });
  }
  return Object.assign(app, { paymentRoutes: routes });
}
