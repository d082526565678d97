import { Elysia, NotFoundError, type Context } from 'elysia';
import { createFetchHandler, createPaymentRoutes, type AdapterOptionKinds, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { normalizeMountPath, PAYMENT_ROUTE_PATHS } from '@paymount/core/http';

/** The route options, with `resolveOrder` and the event handlers given the route's Elysia `Context` as `ctx.context`. */
export interface PaymentPluginOptions extends PaymentRoutesOptions<Context> {
  /** Serve the routes under this path, e.g. '/payments': the plugin's Elysia `prefix`. Default: at the root. */
  prefix?: string;
}

/**
 * What `paymentPlugin` returns: an Elysia plugin whose app's handlers get the core routes as `paymentRoutes`.
 * Elysia's type parameters are invariant: the others are spelled as Elysia's own defaults spell them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type PaymentPlugin = Elysia<string, { decorator: { paymentRoutes: PaymentRoutes<Context> }; store: {}; derive: {}; resolve: {} }>;

/** The plugin's own option beside the routes', checked with theirs. */
const ELYSIA_OPTIONS = { prefix: 'routerPath' } as const satisfies AdapterOptionKinds;

/** Logged with BODY_ALREADY_CONSUMED: how an Elysia app keeps its hooks off the bytes the webhook signature covers. */
const ELYSIA_CONSUMED_BODY_FIX =
  'a hook before the payment routes read the body (an `onParse` that returned a value, `await request.json()` in a `derive` or `onTransform`), and paymount must read the exact bytes itself: ' +
  'register the plugin before that hook (`new Elysia().use(paymentPlugin(options)).onParse(...)`: Elysia gives an app\'s hooks only to the routes registered after them), ' +
  "keep the hook in a plugin of its own with the default `{ as: 'local' }` scope (not 'scoped' or 'global'), or have it read a copy: `await request.clone().json()`";

/**
 * The routes' parser: any value but `undefined` stops Elysia's own parsers, and `null` leaves `body` empty
 * and the stream unread, for core to read with its limit and verify byte for byte.
 */
const leaveBodyUnread = () => null;

/** Answers a path core does not serve (an escaped spelling, a trailing slash) as the app answers any unknown path. */
function notFound(): never {
  throw new NotFoundError();
}

/**
 * The payment routes as an Elysia plugin:
 * `new Elysia().use(paymentPlugin({ prefix: '/payments', ...options }))`. Each
 * route is registered by its literal path for every method, so the app's
 * other routes under the prefix stay its own; the routes read the raw body
 * themselves (Elysia parses none of it). The app's handlers get the core
 * routes as `paymentRoutes` (`.client`, `.on()`, `.reconcile()`), and
 * `app.stop()` closes them. Free of Node APIs.
 */
export function paymentPlugin(options: PaymentPluginOptions): PaymentPlugin {
  const paymentRoutes = createPaymentRoutes(options, ELYSIA_OPTIONS);
  // Elysia reads a handler's source to learn which Context fields to fill: a handler handing `ctx` whole to a call
  // gets them all, as the merchant's hooks, which receive it as `ctx.context`, may read any of them.
  const serveRoute = (ctx: Context, route: string) => {
    // `ctx.route` is the path as registered, the app's prefixes included: the mount is what precedes the route.
    // A parameter in an app's prefix stays one in that mount, which no request's path matches: answered 404.
    const mountPath = ctx.route.slice(0, -route.length);
    return createFetchHandler(paymentRoutes, { mountPath, notFound, consumedBodyFix: ELYSIA_CONSUMED_BODY_FIX })(ctx.request, { context: ctx });
  };
  const plugin = new Elysia({ prefix: normalizeMountPath(options.prefix) }).decorate('paymentRoutes', paymentRoutes).onStop(() => paymentRoutes.close());
  for (const route of PAYMENT_ROUTE_PATHS) {
    const serve = (ctx: Context) => serveRoute(ctx, route);
    // HEAD has a route of its own: Elysia answers a HEAD to an `all` route with the length of the body it
    // drops, 0 for core's bodiless HEAD answer, where the GET's length belongs.
    plugin.head(route, serve, { parse: leaveBodyUnread }).all(route, serve, { parse: leaveBodyUnread });
  }
  return plugin;
}
