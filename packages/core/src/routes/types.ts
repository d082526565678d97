import type { IdempotencyStore } from '../idempotency/store';
import type { CancelCheckoutResult } from '../orders/cancel-checkout';
import type { ReconcileOptions, ReconcileSummary } from '../orders/reconcile';
import type { OrderAttemptStore } from '../orders/store';
import type { Logger } from '../logger';
import type { PaymentTelemetry } from '../telemetry/options';
import type { PaymentEventHandler, PaymentEventName, PaymentEventSubscriptions } from '../webhooks/event-handlers';
import type { WebhookSecrets } from '../webhooks/verify-webhook';
import type { PaymentClient } from '../client/types';
import type { PaymentClientOptions } from '../schemas/client-options';
import type { NeutralRequest, NeutralResponse } from './neutral-http';

/** The merchant's own order, looked up on the server: the only source of the amount charged. */
export interface MerchantOrder {
  /** The service's `referenceOrderId`: 6 to 32 characters of `[A-Za-z0-9_-|*]`. */
  referenceOrderId: string;
  /** Integers in minor units. */
  amount: { orderAmount: number; taxAmount?: number; surchargeAmount?: number; priceCurrency: string };
  description: string;
  productList?: Array<{ amount: number; name: string; num: number }>;
  /** Overrides the `merchantReturnUrl` option for this order. */
  merchantReturnUrl?: string;
  /**
   * `false` when the order takes no payment (already paid, cancelled,
   * refunded): the payment routes answer 409 `ORDER_NOT_PAYABLE` and send
   * nothing; GET /status still answers for it. Default true.
   */
  payable?: boolean;
}

export type PaymentRouteName = 'checkout' | 'wallet-config' | 'wallet-pay' | 'status';

/** `TContext`: the framework's request type, which each adapter fills in (Express `Request`, Koa `Context`, ...). */
export interface OrderLookupContext<TContext = unknown> {
  route: PaymentRouteName;
  request: NeutralRequest;
  /** The framework's request object (Express req, Koa ctx, the Node request…), e.g. for the session user. */
  context: TContext;
}

/** Resolves to null or undefined when the order does not exist (answered 404). */
export type ResolveOrder<TContext = unknown> = (
  orderId: string,
  ctx: OrderLookupContext<TContext>,
) => Promise<MerchantOrder | null | undefined> | MerchantOrder | null | undefined;

export interface WalletRouteOptions {
  /** The gateway identifier the service was assigned by the wallet provider. */
  gatewayId: string;
  allowedCardNetworks?: string[];
  merchantName?: string;
  countryCode?: string;
}

export type WebhookRouteOptions = WebhookSecrets & {
  /**
   * Allowed distance from now, either way, of X-Timestamp and of the time
   * signed into the body (`signedTimeField`). Default 5 minutes. Every retry
   * of the service must arrive within it of the event's signed time.
   */
  toleranceMs?: number;
  /**
   * The body field holding the time the service signed the notification at
   * (ISO 8601 with a zone, or 13-digit epoch ms). A body older than
   * `toleranceMs` by it is refused (`WEBHOOK_STALE_EVENT`), whatever its
   * headers say. Default `notifyTime`.
   */
  signedTimeField?: string;
  /**
   * Refuse a body without the signed time (`WEBHOOK_MISSING_SIGNED_TIME`).
   * Default false: it is accepted, with a warning logged once, and a replay of
   * it is then stopped only while its event is remembered (`dedupeTtlMs`).
   */
  requireSignedTime?: boolean;
  /** Largest webhook body accepted. Default 100 KiB. */
  maxBodyBytes?: number;
  /**
   * How long a handled event is remembered as done. Default 24 hours; at
   * least twice `toleranceMs`, so an event is remembered for as long as a
   * replay of it can pass the signed-time window.
   */
  dedupeTtlMs?: number;
  /**
   * How long a delivery being handled blocks others of the same event. Default
   * 25 s: longer than the service waits for an answer (10 s), shorter than its
   * retries last (about 31 s), so a crashed instance's claim frees in time for
   * a retry. A handler running longer than this can run twice.
   */
  processingTtlMs?: number;
};

export interface OrderGuardOptions {
  /**
   * Where each order's current payment attempt and its lock are kept. Default
   * a bounded in-memory store (one process); several instances need a shared
   * one (`RedisOrderAttemptStore` from `@paymount/redis`).
   */
  store?: OrderAttemptStore;
  /**
   * Longest time a payment request holds its order's lock. Keep it above
   * twice the client's `deadlineMs` (a request may make two calls). Default
   * 2 × `deadlineMs` + 30 s: 210 s with the client's default deadline, and
   * when a client object is given.
   */
  lockTtlMs?: number;
  /**
   * How long an order's attempt is remembered after its last change: past a
   * session's 30 minutes and a pending payment's settlement. Default 24 hours;
   * after that only `resolveOrder`'s `payable` guards the order.
   */
  attemptTtlMs?: number;
}

/**
 * `TContext` is the type of the framework request handed to `resolveOrder` and
 * the event handlers: each adapter's own options fill it in; core's node and
 * fetch entries leave it `unknown`.
 */
export interface PaymentRoutesOptions<TContext = unknown> {
  /** A client, or the options to create one (then closed by `handlers.close()`). */
  client: PaymentClient | PaymentClientOptions;
  resolveOrder: ResolveOrder<TContext>;
  /**
   * The public HTTPS URL of the mounted webhook route, sent with every payment:
   * one URL, or one per order (also handy when the app's own address is only
   * known once it listens; undefined sends none for that order). Without one,
   * run `handlers.reconcile()` on a schedule to hear of outcomes.
   */
  notifyUrl?: string | ((order: MerchantOrder) => string | undefined);
  /** Where the shopper returns after checkout: one URL, or one per order. An order's own URL wins. */
  merchantReturnUrl?: string | ((order: MerchantOrder) => string);
  /** Needed by GET /wallet/config. */
  wallet?: WalletRouteOptions;
  /**
   * Origins (`https://shop.example`, no path) besides the app's own from which
   * a browser may post the checkout form, e.g. a storefront on another domain.
   * Default none: form posts from another site are refused (403). JSON calls
   * are not affected.
   */
  allowedOrigins?: string[];
  webhook: WebhookRouteOptions;
  /** Where webhook deliveries are deduplicated. Default a bounded in-memory store (single process). */
  store?: IdempotencyStore;
  /** The per-order payment guard: at most one charge per order. */
  orders?: OrderGuardOptions;
  /**
   * Event handlers by event name, or '*' for all, each given its own event
   * type (`'refund.succeeded': (event) => event.originalTransactionId`). More
   * can be added with `handlers.on()`.
   */
  on?: PaymentEventSubscriptions<TContext>;
  /**
   * Where paymount logs, through its redactor. Left out, warnings and errors
   * (every 5xx, every refused webhook delivery, every refusal by the service,
   * each once with the fix when known) go to the console (stderr), one line
   * each; a logger replaces that; `false` logs nothing.
   */
  logger?: Logger | false;
  /** Largest body of POST /checkout and POST /wallet/pay. Default 100 KiB. */
  bodyLimitBytes?: number;
  /** Clock for the webhook timestamp window; injectable for tests. */
  clock?: { now(): number };
  /**
   * Spans and metrics of the routes, webhook deliveries, reconciliation and
   * (when `client` is options) the client's calls. Default: the global
   * OpenTelemetry providers, when `@opentelemetry/api` is installed; `false`: none.
   */
  telemetry?: PaymentTelemetry;
}

export interface PaymentRoutes<TContext = unknown> {
  /** Serves a paymount route, or resolves undefined for any other path (the adapter passes the request on). */
  handle(req: NeutralRequest): Promise<NeutralResponse | undefined>;
  /** Subscribes a handler to the events named `name` ('*': all); the handler receives that name's event type. Returns the unsubscribe. */
  on<N extends PaymentEventName>(name: N, handler: PaymentEventHandler<N, TContext>): () => void;
  /**
   * Asks the service about every payment attempt a webhook has not settled
   * (pending, an open session, an outcome not yet handled) and hands each
   * final outcome to the event handlers, once per event whether the webhook,
   * this, or both bring it. Run it on a schedule; rejects only when the order
   * attempt store cannot be read.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /**
   * Cancels the order's abandoned checkout: under the order's lock, expires
   * its open hosted session with the service (the page then says it expired)
   * and records it closed, so the order can be checked out again. A session
   * already paid answers `already-paid`; an order with no open session,
   * `no-open-checkout`. `referenceOrderId` is the one `resolveOrder` gives.
   */
  cancelCheckout(referenceOrderId: string): Promise<CancelCheckoutResult>;
  readonly client: PaymentClient;
  /** The routes' paths below the mount point ('/checkout', ...), for routers that register each path. */
  readonly routePaths: readonly string[];
  /** The largest body any route accepts: the limit an adapter reads request bodies with. */
  readonly bodyLimitBytes: number;
  close(): Promise<void>;
}
