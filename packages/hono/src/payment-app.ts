import { Hono, type Context, type Env } from 'hono';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { PAYMENT_ROUTE_PATHS, pathUnderMount, rawPathOf, routesOnFirstUse, toFetchResponse, toNeutralFetchRequest } from '@paymount/core/http';
import type { BlankEnv } from 'hono/types';
import { keptByHono } from './kept-body';
import { optionsUnavailable, type PaymentRoutesOptionsFactory } from './options-factory';

/** The handler options, with `resolveOrder` and the event handlers given the app's Hono `Context` as `ctx.context`. */
export type PaymentAppOptions<E extends Env = BlankEnv> = PaymentRoutesOptions<Context<E>>;

/** A Hono app serving the payment routes, to mount with `app.route('/payments', payments)`. */
export type PaymentApp<E extends Env = BlankEnv> = Hono<E> & {
  /** The core routes behind the app: `paymentRoutes.client`, `.on(...)`, `.reconcile()`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<Context<E>>;
};

/** The payment routes as a Hono app whose options are made on its first request: `paymentApp((c) => options)`. */
export type PaymentAppOnFirstRequest<E extends Env = BlankEnv> = Hono<E> & {
  /**
   * The core routes behind the app (`.client`, `.on(...)`, `.reconcile()`,
   * `.close()`): those the first request made, or made now from `c` if no
   * request has yet. For a route of your own: `(await payments.getPaymentRoutes(c)).client`.
   */
  getPaymentRoutes(c: Context<E>): Promise<PaymentRoutes<Context<E>>>;
};

/** Logged with BODY_ALREADY_CONSUMED: how a Hono app stops a middleware from taking the bytes away. */
const HONO_CONSUMED_BODY_FIX =
  'a middleware before the payment routes read the body in a way that keeps no bytes (`await c.req.raw.json();`, `await c.req.raw.text();`, a reader on `c.req.raw.body`, ' +
  '`await c.req.formData();`), and the webhook signature covers the exact bytes: have it read the body with `await c.req.text();`, `await c.req.arrayBuffer();`, `await c.req.json();` ' +
  "or `await c.req.parseBody();` (Hono keeps those bytes and paymount reads them), or register the payment routes before it: `app.route('/payments', paymentApp(options));`";

/**
 * The payment routes as a Hono app: `app.route('/payments', paymentApp(options))`,
 * under any path or `basePath`. Each route is registered by its literal path,
 * so every other path (and a guard's `app.use('/payments/checkout', ...)`)
 * stays the app's. Free of Node APIs: it runs wherever Hono does.
 *
 * Where the settings arrive with each request (a Cloudflare Worker's `c.env`),
 * pass a function instead: `paymentApp((c) => options)` calls it on the
 * first payment request, with that request's `Context`, and keeps the routes
 * it makes for every later request this app serves (a Worker isolate's
 * lifetime). Read only what every request shares (`c.env`), never the request.
 * While it throws, or its options are invalid, the routes answer `500` and log
 * why; the next request calls it again.
 */
export function paymentApp<E extends Env = BlankEnv>(options: PaymentRoutesOptionsFactory<E>): PaymentAppOnFirstRequest<E>;
// Last, so `ReturnType<typeof paymentApp>` stays the app of an options object.
export function paymentApp<E extends Env = BlankEnv>(options: PaymentAppOptions<E>): PaymentApp<E>;
export function paymentApp<E extends Env = BlankEnv>(
  options: PaymentAppOptions<E> | PaymentRoutesOptionsFactory<E>,
): PaymentApp<E> | PaymentAppOnFirstRequest<E> {
  if (typeof options === 'function') {
    const routesFor = routesOnFirstUse(options);
    return Object.assign(routesApp(routesFor), { getPaymentRoutes: routesFor });
  }
  const routes = createPaymentRoutes(options);
  return Object.assign(
    routesApp<E>(() => routes),
    { paymentRoutes: routes },
  );
}

/** A Hono app registering every payment route by its literal path, served by the core routes `routesFor` gives for the request. */
function routesApp<E extends Env>(routesFor: (c: Context<E>) => PaymentRoutes<Context<E>> | Promise<PaymentRoutes<Context<E>>>): Hono<E> {
  const app = new Hono<E>();
  for (const route of PAYMENT_ROUTE_PATHS) {
    app.all(route, async (c, next) => {
      // Hono routes on the decoded path (`/pay%6dents/%63heckout` reaches `/payments/checkout`), a guard may match it as sent:
      // served only when the whole path, mount included, is spelled plainly, as createFetchHandler serves its mount.
      const rawPath = rawPathOf(c.req.url);
      if (pathUnderMount(rawPath, '') === undefined || !rawPath.endsWith(route)) return next();
      let routes: PaymentRoutes<Context<E>>;
      try {
        routes = await routesFor(c);
      } catch (error) {
        return optionsUnavailable(error);
      }
      const keptBody = await keptByHono(c.req);
      const request = toNeutralFetchRequest(c.req.raw, {
        path: route,
        context: c,
        limitBytes: routes.readLimitBytes,
        consumedBodyFix: HONO_CONSUMED_BODY_FIX,
        ...(keptBody === undefined ? {} : { keptBody }),
      });
      const response = await routes.handle(request);
      return response === undefined ? next() : toFetchResponse(response, c.req.method);
    });
  }
  return app;
}
