import { PaymentErrorCode } from '../error-codes';
import { createPaymentClient } from '../client/create-client';
import type { PaymentClient } from '../client/types';
import { PaymentValidationError } from '../errors';
import type { PaymentClientOptions } from '../schemas/client-options';
import { warnIfClaimsCannotBeRenewed } from '../idempotency/claim-heartbeat';
import { MemoryIdempotencyStore } from '../idempotency/memory-store';
import { createRedactingLogger, Redactor, type Logger } from '../logger';
import { checkedOrderStore } from '../orders/checked-store';
import { withAttempt } from '../orders/event-attempt';
import type { OrderGuardDeps } from '../orders/guard-deps';
import { settleHandledEvent } from '../orders/handled-events';
import { MemoryOrderAttemptStore } from '../orders/memory-store';
import { createOrderGuard } from '../orders/order-guard';
import { lateArrivalMs } from '../orders/order-lock';
import { requestIdSource } from '../orders/request-ids';
import { createRouteTelemetry, WEBHOOK_ROUTE } from '../telemetry/route-spans';
import { validate } from '../validation';
import { DEFAULT_DEADLINE_MS } from '../schemas/client-options';
import { PaymentEventRegistry, type PaymentEventHandler, type PaymentEventName } from '../webhooks/event-handlers';
import { DEFAULT_SIGNED_TIME_FIELD } from '../webhooks/signed-time';
import {
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  secretsOf,
} from '../webhooks/verify-webhook';
import { DEFAULT_BODY_READ_TIMEOUT_MS, withBodyDeadline } from './body-deadline';
import { checkoutRoute } from './checkout';
import { errorResponse, errorToResponse } from './errors-to-response';
import { clockFix, type FailureContext } from './failure-log';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { paymentRoutesOptionsSchema } from './options-schema';
import { unlessRefused } from './order-refusals';
import type { RouteDeps } from './route-deps';
import { statusRoute } from './status';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';
import { walletConfigRoute } from './wallet-config';
import { walletPayRoute } from './wallet-pay';
import { DEFAULT_DEDUPE_TTL_MS, unsignedTimeWarning, webhookRoute, type WebhookDeps } from './webhook';

/**
 * The browser routes' bodies are `{ orderId }` and `{ orderId, token }`: a
 * wallet token is 1 to 4 KiB (the sandbox's about 0.75 KiB), an order id at
 * most 128 characters, so 16 KiB holds any of them with room to spare.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;
/**
 * Under the service's retry schedule (1, 2, 4, 8, 16 s) a delivery to a crashed
 * instance fails fast and its last retry comes about 31 s after the first: a
 * claim held longer would outlive every retry and the event would be lost. 25 s
 * is still well past the service's 10 s wait for an answer.
 */
const DEFAULT_PROCESSING_TTL_MS = 25_000;
/** Past a session's 30 minutes and the settlement of a pending payment, with a wide margin. */
export const DEFAULT_ATTEMPT_TTL_MS = 24 * 60 * 60_000;

/**
 * A payment request may make two calls under its order's lock (expire a
 * session, then pay), each up to the client's whole-call deadline: the lock
 * outlives both, so it never frees while a call of its holder is in flight.
 */
function defaultLockTtlMs(deadlineMs: number): number {
  return 2 * deadlineMs + 30_000;
}

/** A lock shorter than two calls could free while its holder's call is in flight, and a second request would pay too. */
function checkLockTtl(lockTtlMs: number, deadlineMs: number): void {
  if (lockTtlMs >= 2 * deadlineMs) return;
  throw new PaymentValidationError('payment handlers options', [
    {
      path: 'orders.lockTtlMs',
      rule: 'lock_outlives_calls',
      message: `must be at least twice the client's deadlineMs (${deadlineMs} ms): ${2 * deadlineMs} or more, or leave it unset (default ${defaultLockTtlMs(deadlineMs)})`,
    },
  ]);
}

type Route = (req: NeutralRequest) => Promise<NeutralResponse>;

function isPaymentClient(value: object): value is PaymentClient {
  const candidate = value as Partial<PaymentClient>;
  return typeof candidate.createCheckoutSession === 'function' && typeof candidate.directPayment === 'function';
}

/** The methods a route answers: HEAD wherever GET is, since HEAD is GET without the body. */
function allowedMethods(byMethod: Readonly<Record<string, Route>>): string {
  const methods = Object.keys(byMethod);
  return (byMethod['GET'] ? [...methods, 'HEAD'] : methods).join(', ');
}

/** A route's answer: whatever it throws becomes the JSON error shape. */
async function answerRoute(route: Route, req: NeutralRequest, logger: Logger, failure: FailureContext): Promise<NeutralResponse> {
  try {
    return await route(req);
  } catch (error) {
    return errorToResponse(error, logger, failure);
  }
}

/** Route paths relative to the mount point; a trailing slash is tolerated. */
function routePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * The payment routes as one framework-neutral handler. Options are
 * validated up front; every route failure becomes the JSON error shape, and
 * nothing thrown by a route escapes `handle()`.
 */
export function createPaymentRoutes<TContext = unknown>(typedOptions: PaymentRoutesOptions<TContext>): PaymentRoutes<TContext> {
  // An adapter hands handle() only requests whose `context` is its TContext: inside, the routes need not know the type.
  const options = typedOptions as PaymentRoutesOptions;
  const clientGiven = typeof options?.client === 'object' && options.client !== null && isPaymentClient(options.client);
  const localDevelopment = clientGiven ? true : (options?.client as PaymentClientOptions | undefined)?.localDevelopment === true;
  validate(paymentRoutesOptionsSchema({ localDevelopment }), options, 'payment handlers options');

  const redactor = new Redactor();
  const secrets = secretsOf(options.webhook);
  secrets.forEach((secret) => redactor.addSecret(secret));
  if (!clientGiven) redactor.addSecret((options.client as PaymentClientOptions).apiKey);
  if (options.orders?.requestIdKey !== undefined) redactor.addSecret(options.orders.requestIdKey);
  const logger = createRedactingLogger(options.logger, redactor);

  // The routes log each failure once, where it becomes the answer: their own client only speaks to a logger given on purpose.
  const client = clientGiven
    ? (options.client as PaymentClient)
    : createPaymentClient({ logger: options.logger ?? false, telemetry: options.telemetry, ...(options.client as PaymentClientOptions) });
  // The deadline of a client given as an object is its own; one the routes create has its options' (or the default).
  const deadlineMs = client.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const lockTtlMs = options.orders?.lockTtlMs ?? defaultLockTtlMs(deadlineMs);
  checkLockTtl(lockTtlMs, deadlineMs);
  const telemetry = createRouteTelemetry(options.telemetry, redactor);
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const webhookMaxBodyBytes = options.webhook.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
  const bodyReadTimeoutMs = options.bodyReadTimeoutMs ?? DEFAULT_BODY_READ_TIMEOUT_MS;

  const events = new PaymentEventRegistry();
  for (const [name, handler] of Object.entries(options.on ?? {})) {
    // The schema let any key through: events.on() refuses a name that is not an event's.
    if (handler) events.on(name as PaymentEventName, handler as PaymentEventHandler);
  }

  const clock = options.clock ?? Date;
  const failureContext = {
    clockFix: clockFix(clientGiven ? undefined : (options.client as PaymentClientOptions).clock, options.clock),
  };
  const signedTimeField = options.webhook.signedTimeField ?? DEFAULT_SIGNED_TIME_FIELD;
  const webhookDeps: WebhookDeps = {
    secrets,
    toleranceMs: options.webhook.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS,
    maxBodyBytes: webhookMaxBodyBytes,
    signedTimeField,
    requireSignedTime: options.webhook.requireSignedTime ?? false,
    onUnsignedTime: unsignedTimeWarning(logger, signedTimeField),
    dedupeTtlMs: options.webhook.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    processingTtlMs: Math.min(
      options.webhook.processingTtlMs ?? DEFAULT_PROCESSING_TTL_MS,
      options.webhook.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    ),
    store: options.store ?? new MemoryIdempotencyStore(options.clock ? { clock: options.clock } : {}),
    // `orders` is declared below: its reconciliation hands events to these same handlers.
    handlers: { dispatch: async (event, context) => events.dispatch(await withAttempt(orders, event), context) },
    afterHandled: (event) => settleHandledEvent(orders, event),
    clock,
    logger,
  };

  const orders: OrderGuardDeps = {
    client,
    store: checkedOrderStore(options.orders?.store ?? new MemoryOrderAttemptStore({ clock })),
    lockTtlMs,
    attemptTtlMs: options.orders?.attemptTtlMs ?? DEFAULT_ATTEMPT_TTL_MS,
    clock,
    logger,
    requestIds: requestIdSource(client, options.orders?.requestIdKey),
    lateArrivalMs: lateArrivalMs(deadlineMs),
    events: webhookDeps,
  };
  const guard = createOrderGuard(orders);
  const deps: RouteDeps = {
    client,
    resolveOrder: telemetry ? telemetry.observeOrderLookups(options.resolveOrder) : options.resolveOrder,
    notifyUrl: options.notifyUrl,
    merchantReturnUrl: options.merchantReturnUrl,
    wallet: options.wallet,
    allowedOrigins: new Set(options.allowedOrigins),
    bodyLimitBytes,
    logger,
    guard,
  };

  warnIfClaimsCannotBeRenewed(webhookDeps.store, webhookDeps.processingTtlMs, logger);

  const routes: Readonly<Record<string, Readonly<Record<string, Route>>>> = {
    '/checkout': { POST: (req) => checkoutRoute(req, deps) },
    '/wallet/config': { GET: (req) => walletConfigRoute(req, deps) },
    '/wallet/pay': { POST: (req) => walletPayRoute(req, deps) },
    '/status': { GET: (req) => statusRoute(req, deps) },
    [WEBHOOK_ROUTE]: { POST: (req) => webhookRoute(req, telemetry ? telemetry.observeDelivery(webhookDeps, req) : webhookDeps) },
  };

  const handlers: PaymentRoutes = {
    client,
    routePaths: Object.keys(routes),
    bodyLimitBytes: Math.max(bodyLimitBytes, webhookMaxBodyBytes),
    on: (name, handler) => events.on(name, handler),
    reconcile: (reconcileOptions) => {
      const run = () => guard.reconcile(reconcileOptions);
      return telemetry ? telemetry.traceReconcile(run) : run();
    },
    cancelCheckout: async (referenceOrderId) => unlessRefused(await guard.cancel(referenceOrderId)),
    async handle(received) {
      const req = withBodyDeadline(received, bodyReadTimeoutMs);
      const path = routePath(req.path);
      const byMethod = routes[path];
      if (byMethod === undefined) return undefined;
      const method = req.method.toUpperCase();
      // A HEAD runs the GET route; the writer sends its headers only (RFC 9110 9.3.2).
      const route = byMethod[method] ?? (method === 'HEAD' ? byMethod['GET'] : undefined);
      if (route === undefined) {
        const allow = allowedMethods(byMethod);
        return errorResponse(
          405,
          { code: PaymentErrorCode.METHOD_NOT_ALLOWED, message: `This route answers ${allow} only.` },
          { allow },
        );
      }
      const answer = () => answerRoute(route, req, logger, { ...failureContext, method, path });
      return telemetry ? telemetry.traceRoute(path, method, req, answer) : answer();
    },
    async close() {
      if (!clientGiven) await client.close();
    },
  };
  return handlers as PaymentRoutes<TContext>;
}
