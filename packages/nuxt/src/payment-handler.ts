import { createError, defineEventHandler, type EventHandler, type EventHandlerRequest, type H3Event } from 'h3';
import { createFetchHandler, createPaymentRoutes, createRedactingLogger, type FetchHandler, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { internalErrorResponse, optionsUnavailableResponse, pathUnderMount, rawPathOf, routesOnFirstUse } from '@paymount/core/http';
import { CATCH_ALL_FIX, mountPathOf } from './mount-path';
import { NITRO_CONSUMED_BODY_FIX, requestOfEvent } from './web-request';

/** The handler options, with `resolveOrder` and the event handlers given the `H3Event` as `ctx.context`. */
export type PaymentHandlerOptions = PaymentRoutesOptions<H3Event>;

/**
 * Makes the options from the first payment request's event: `(event) => options`
 * reading `useRuntimeConfig(event)`, whose values (`NUXT_*` variables) exist
 * only once the server runs. May be async.
 */
export type PaymentHandlerOptionsFactory = (event: H3Event) => PaymentHandlerOptions | Promise<PaymentHandlerOptions>;

/** The route file's default export: an h3 event handler answering a web `Response`. */
export type PaymentEventHandler = EventHandler<EventHandlerRequest, Promise<Response>>;

/** `paymentHandler(options)`: the handler and the core routes behind it. */
export type PaymentHandler = PaymentEventHandler & {
  /** The core routes behind the handler: `paymentRoutes.client`, `.on(...)`, `.reconcile()`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<H3Event>;
};

/** `paymentHandler((event) => options)`: the handler, whose routes the first payment request makes. */
export type PaymentHandlerOnFirstRequest = PaymentEventHandler & {
  /**
   * The core routes behind the handler (`.client`, `.on(...)`, `.reconcile()`,
   * `.close()`): those the first request made, or made now from `event` if no
   * request has yet. For a route of your own: `(await payments.getPaymentRoutes(event)).client`.
   */
  getPaymentRoutes(event: H3Event): Promise<PaymentRoutes<H3Event>>;
};

// The logger of the options is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

const OPTIONS_FIX =
  'fix what the error names; a setting read from `useRuntimeConfig(event)` is set by its `NUXT_` environment variable where `node .output/server/index.mjs` runs (`NUXT_PAYMENT_API_KEY` for `runtimeConfig.paymentApiKey`). The next request calls the options function again';

/** Paths below the route that are no payment route, or are spelled in disguise: Nitro's own 404, as for any path it has no route for. */
function notFound(): never {
  throw createError({ statusCode: 404, statusMessage: 'Not Found' });
}

/**
 * The payment routes as an h3 event handler, for a Nitro catch-all route:
 * `export default paymentHandler(options)` in `server/routes/payments/[...].ts`
 * serves `/payments/checkout` and the others. The mount path is where the file
 * sits. `resolveOrder` and the event handlers get the `H3Event` as `ctx.context`.
 *
 * Where the settings are read at run time (`useRuntimeConfig(event)`), pass a
 * function instead: `paymentHandler((event) => options)` calls it on the first
 * payment request and keeps the routes it makes; while it throws, or its options
 * are invalid, the routes answer `500` and log why, and the next request calls it again.
 */
export function paymentHandler(options: PaymentHandlerOptionsFactory): PaymentHandlerOnFirstRequest;
// Last, so `ReturnType<typeof paymentHandler>` stays the handler of an options object.
export function paymentHandler(options: PaymentHandlerOptions): PaymentHandler;
export function paymentHandler(options: PaymentHandlerOptions | PaymentHandlerOptionsFactory): PaymentHandler | PaymentHandlerOnFirstRequest {
  if (typeof options === 'function') {
    const routesFor = routesOnFirstUse(options);
    return Object.assign(routesHandler(routesFor), { getPaymentRoutes: routesFor });
  }
  const routes = createPaymentRoutes(options);
  return Object.assign(
    routesHandler(() => routes),
    { paymentRoutes: routes },
  );
}

/** The event handler serving the core routes `routesFor` gives for the event, at the mount path its catch-all route names. */
function routesHandler(routesFor: (event: H3Event) => PaymentRoutes<H3Event> | Promise<PaymentRoutes<H3Event>>): PaymentEventHandler {
  let fetchHandler: { mountPath: string; routes: PaymentRoutes<H3Event>; handle: FetchHandler<H3Event> } | undefined;
  return defineEventHandler(async (event) => {
    // The URL the routes read is parsed (dot segments and backslashes resolved), while a server middleware matched the path as sent:
    // served only when the whole path is spelled plainly, so the route served is the one every middleware before it saw.
    const rawPath = rawPathOf(event.node.req.originalUrl ?? event.path);
    if (pathUnderMount(rawPath, '') === undefined) notFound();
    const mountPath = mountPathOf(event, rawPath);
    if (mountPath === undefined) {
      log.error({ route: `${event.method} ${rawPath}`, fix: CATCH_ALL_FIX }, 'paymount payment handler is not on a catch-all route');
      return internalErrorResponse();
    }
    let routes: PaymentRoutes<H3Event>;
    try {
      routes = await routesFor(event);
    } catch (error) {
      return optionsUnavailableResponse(error, { madeBy: 'paymentHandler((event) => options)', fix: OPTIONS_FIX });
    }
    // One route file has one mount path; made again only if the same handler serves from another file.
    if (fetchHandler?.mountPath !== mountPath || fetchHandler.routes !== routes) {
      fetchHandler = { mountPath, routes, handle: createFetchHandler(routes, { mountPath, notFound, consumedBodyFix: NITRO_CONSUMED_BODY_FIX }) };
    }
    const { request, keptBody } = await requestOfEvent(event);
    return fetchHandler.handle(request, { context: event, ...(keptBody === undefined ? {} : { keptBody }) });
  });
}
