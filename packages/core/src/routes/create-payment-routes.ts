// The composition root: config, stores, guard, webhook deps, the route table, `handle()`.
import { checkoutFailureRender, type ErrorRender, errorResponse, errorToAnswer, type FailureContext } from '../http/error-answers';
import { answered, markedByRoute, type NeutralRequest, type NeutralResponse, PAYMENT_ROUTE_PATHS, type PaymentRoutePath, type RouteAnswer, WEBHOOK_ROUTE, withBodyDeadline } from '../http/neutral-http';
import { lateArrivalMs, type OrderGuardDeps, requestIdSource } from '../orders/next-attempt';
import { createOrderGuard } from '../orders/order-guard';
import { reconcileRefunds, settleHandledEvent, withAttempt } from '../orders/reconcile';
import { checkedOrderStore } from '../orders/store';
import { PaymentErrorCode } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { queuedEventSeal, warnIfClaimsCannotBeRenewed } from '../webhook-dedupe/handle-event-once';
import { type PaymentEventHandler, type PaymentEventName, PaymentEventRegistry } from '../webhooks/event-handlers';
import type { AdapterOptionKinds } from './adapter-options';
import { checkCredentialsSoon, resolvePaymentRoutesConfig, warnIfMemoryIsIsolated } from './config';
import { checkoutRoute, type RouteDeps, statusRoute, unlessRefused, walletConfigRoute, walletPayRoute } from './order-routes';
import { createRouteTelemetry } from './route-spans';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';
import { logLostEvent, processQueuedEvent, retryHintOf, unsignedTimeWarning, type WebhookDeps, webhookRoute } from './webhook';

type Route = (req: NeutralRequest) => Promise<RouteAnswer>;

/** The methods a route answers: HEAD wherever GET is, since HEAD is GET without the body. */
function allowedMethods(byMethod: Readonly<Record<string, Route>>): string {
  const methods = Object.keys(byMethod);
  return (byMethod['GET'] ? [...methods, 'HEAD'] : methods).join(', ');
}

/** A route's answer: whatever it throws becomes the error shape, JSON unless the route renders its failures for its caller. */
async function answerRoute(route: Route, req: NeutralRequest, logger: Logger, failure: FailureContext, render?: ErrorRender): Promise<RouteAnswer> {
  try {
    return await route(req);
  } catch (error) {
    return errorToAnswer(error, logger, failure, render);
  }
}

/** The routes whose failures a browser may land on: each picks, per request, how a failure is rendered. */
const FAILURE_RENDERS: Partial<Record<PaymentRoutePath, (req: NeutralRequest) => ErrorRender>> = {
  '/checkout': checkoutFailureRender,
};

/** Route paths relative to the mount point; a trailing slash is tolerated. */
function routePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
}

/**
 * The payment routes as one framework-neutral handler. Options are
 * validated up front; every route failure becomes the JSON error shape, and
 * nothing thrown by a route escapes `handle()`.
 *
 * An adapter whose options hold its own beside the routes' (`mountPath`)
 * passes them all with `adapterOptions` naming its own and their kinds: they
 * are checked with the routes' options, in one error, and otherwise left to
 * the adapter.
 */
export function createPaymentRoutes<TContext = unknown>(
  typedOptions: PaymentRoutesOptions<TContext>,
  adapterOptions?: AdapterOptionKinds,
): PaymentRoutes<TContext> {
  // An adapter hands handle() only requests whose `context` is its TContext: inside, the routes need not know the type.
  const config = resolvePaymentRoutesConfig(typedOptions as PaymentRoutesOptions, adapterOptions);
  const { client, logger, clock } = config;
  const telemetry = createRouteTelemetry(config.telemetry, config.redactor, logger);

  const events = new PaymentEventRegistry();
  for (const [name, handler] of Object.entries(config.on)) {
    // The schema let any key through: events.on() refuses a name that is not an event's.
    if (handler) events.on(name as PaymentEventName, handler as PaymentEventHandler);
  }

  const failureContext = { clockFix: config.clockFix };
  // Built in order, each part from those above it: an order's attempts (store, ids), then the event side, which
  // reads and settles attempts, then the guard, which hands the events it finds to that event side.
  const attempts = {
    ...config.orders,
    store: checkedOrderStore(config.orders.store),
    requestIds: requestIdSource(client, config.orders.requestIdKey),
    clock,
    logger,
  };
  const { processing } = config.webhook;
  const webhookDeps: WebhookDeps = {
    ...config.webhook,
    processing: processing && telemetry.observeQueue(processing),
    seal: queuedEventSeal(config.webhook.secrets),
    retryHint: retryHintOf(processing),
    onUnsignedTime: unsignedTimeWarning(logger, config.webhook.signedTimeField),
    handlers: events,
    prepare: (event) => withAttempt(attempts, event),
    afterHandled: (event) => settleHandledEvent(attempts, event),
    clock,
    logger,
  };
  const orders: OrderGuardDeps = { ...attempts, client, lateArrivalMs: lateArrivalMs(config.deadlineMs), events: webhookDeps };
  const guard = createOrderGuard(orders);
  const deps: RouteDeps = {
    ...config,
    resolveOrder: telemetry.observeOrderLookups(config.resolveOrder),
    guard,
  };

  warnIfClaimsCannotBeRenewed(webhookDeps);
  warnIfMemoryIsIsolated({ orders: config.orders.store, webhook: config.webhook.store }, logger);
  const credentialsCheck = config.checkCredentials ? checkCredentialsSoon(client, logger, config.apiKeyFingerprint) : undefined;

  // Keyed by PaymentRoutePath: a route added here and not there (or the reverse) does not compile.
  const routes: Readonly<Record<PaymentRoutePath, Readonly<Record<string, Route>>>> = {
    '/checkout': { POST: async (req) => answered(await checkoutRoute(req, deps)) },
    '/wallet/config': { GET: async (req) => answered(await walletConfigRoute(req, deps)) },
    '/wallet/pay': { POST: async (req) => answered(await walletPayRoute(req, deps)) },
    '/status': { GET: async (req) => answered(await statusRoute(req, deps)) },
    [WEBHOOK_ROUTE]: { POST: (req) => webhookRoute(req, telemetry.observeDelivery(webhookDeps, req)) },
  };

  /** A request's answer, or undefined for a path that is not a route's. */
  async function handleRequest(received: NeutralRequest): Promise<NeutralResponse | undefined> {
    const req = withBodyDeadline(received, config.bodyReadTimeoutMs);
    const path = routePath(req.path);
    const byMethod = (routes as Readonly<Record<string, Readonly<Record<string, Route>>>>)[path];
    if (byMethod === undefined) return undefined;
    const method = req.method.toUpperCase();
    // A HEAD runs the GET route; the writer sends its headers only (RFC 9110 9.3.2).
    const route = byMethod[method] ?? (method === 'HEAD' ? byMethod['GET'] : undefined);
    if (route === undefined) {
      const allow = allowedMethods(byMethod);
      return markedByRoute(
        errorResponse(405, { code: PaymentErrorCode.METHOD_NOT_ALLOWED, message: `This route answers ${allow} only.` }, { allow }),
        path,
      );
    }
    const context = { ...failureContext, method, path, ...(req.consumedBodyFix === undefined ? {} : { consumedBodyFix: req.consumedBodyFix }) };
    const answer = () => answerRoute(route, req, logger, context, FAILURE_RENDERS[path as PaymentRoutePath]?.(req));
    return markedByRoute((await telemetry.traceRoute(path, method, req, answer)).response, path);
  }

  const paymentRoutes: PaymentRoutes = {
    client,
    routePaths: PAYMENT_ROUTE_PATHS,
    readLimitBytes: Math.max(config.bodyLimitBytes, config.webhook.maxBodyBytes),
    on: (name, handler) => events.on(name, handler),
    reconcile: (reconcileOptions) => telemetry.traceReconcile(() => guard.reconcile(reconcileOptions)),
    reconcileRefunds: (transactionRequestIds) => reconcileRefunds(orders, transactionRequestIds),
    cancelCheckout: async (referenceOrderId) => unlessRefused(await guard.cancel(referenceOrderId)),
    processEvent: (queued, run) => telemetry.traceQueuedRun(queued, run, () => processQueuedEvent(queued, run, webhookDeps, config.redactor)),
    reportDeadLetter(queued, cause) {
      logLostEvent(queued, cause, webhookDeps);
      telemetry.countDeadLetter(queued);
    },
    handle(received) {
      const checking = credentialsCheck?.resume();
      // On an isolate runtime the first request carries the check: the runtime ends a request's work once it is answered.
      return checking === undefined ? handleRequest(received) : Promise.all([handleRequest(received), checking]).then(([answer]) => answer);
    },
    async close() {
      credentialsCheck?.cancel();
      if (config.ownsClient) await client.close();
    },
  };
  return paymentRoutes as PaymentRoutes<TContext>;
}
