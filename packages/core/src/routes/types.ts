// The routes' public types and options as a merchant writes them.
import type { PaymentClient } from '../client/types';
import type { NeutralRequest, NeutralResponse } from '../http/neutral-http';
import type { OrderGuardSettings } from '../orders/next-attempt';
import type { OrderAttemptStore } from '../orders/store';
import type { PaymentClientOptions } from '../schemas/client-option-types';
import type { LoggerOption } from '../shared/logger';
import type { CancelCheckoutResult, MerchantOrder, PaymentTelemetry, ReconcileOptions, ReconcileSummary } from '../shared/types';
import type { DedupeSettings } from '../webhook-dedupe/handle-event-once';
import type { IdempotencyStore } from '../webhook-dedupe/store';
import type { EventProcessing, PaymentEventHandler, PaymentEventName, PaymentEventSubscriptions, QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-handlers';
import type { WebhookSecrets } from '../webhooks/verify-webhook';

export type { MerchantOrder };

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
   * attempt store cannot be read. One run at a time on these routes: a call
   * while a run with the same options is under way answers that run's
   * summary, so ticks that come while the service is slow add no load; a call
   * with other options runs once it has ended.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /**
   * Asks the service about each refund named (the `transactionRequestId` your
   * app gave `client.refund()`) and hands each final outcome to the event
   * handlers, once per event whether its webhook, this, or both bring it;
   * queued with queued processing. The routes keep no record of refunds, so
   * this is how a refund event lost on the way (a queue's Redis that lost its
   * data, a handler that never saw it) is recovered: name the refunds issued
   * since. A refund the service does not know, or an id that is not a
   * refund's, is counted in `errors` and logged.
   */
  reconcileRefunds(transactionRequestIds: readonly string[]): Promise<ReconcileSummary>;
  /**
   * Cancels the order's abandoned checkout: under the order's lock, expires
   * its open hosted session with the service (the page then says it expired)
   * and records it closed, so the order can be checked out again. A session
   * already paid answers `already-paid`; an order with no open session,
   * `no-open-checkout`. `referenceOrderId` is the one `resolveOrder` gives.
   */
  cancelCheckout(referenceOrderId: string): Promise<CancelCheckoutResult>;
  /**
   * Runs a queued event's handlers, as an inline delivery would: at most once
   * to success per event (the dedupe store's claim, renewed while they run,
   * then its completion), the order's attempt settled after. What a queue's
   * worker calls for each job (`webhook.processing`); `handled` and
   * `duplicate` end the job, `in-progress` means another run holds the event
   * (try later), `failed` means retry it (its error has the secrets cut
   * out, so the queue may keep it), `refused` means a job whose seal does not
   * verify: nothing ran, fail it for good.
   */
  processEvent(queued: QueuedEvent, run: QueuedRun): Promise<QueuedEventHandling>;
  /**
   * Reports a queued event the queue failed for good without a run of it
   * failing (on BullMQ: its runs lost their worker more often than
   * `maxStalledCount` allows): logged as an error naming the event, `cause`
   * and how to retry it, and counted in `paymount.webhook.dead_letters`. A run
   * that fails on its last attempt is reported by `processEvent` itself.
   */
  reportDeadLetter(queued: QueuedEvent, cause: unknown): void;
  readonly client: PaymentClient;
  /** The routes' paths below the mount point ('/checkout', ...), for routers that register each path. */
  readonly routePaths: readonly string[];
  /**
   * The largest body any route accepts, the larger of `bodyLimitBytes` and `webhook.maxBodyBytes`: the
   * limit an adapter reads request bodies with (each route then keeps its own).
   */
  readonly readLimitBytes: number;
  close(): Promise<void>;
}

// The options of `createPaymentRoutes`, written out so that the published declarations name no zod and keep
// their JSDoc; test/routes-options.test-d.ts holds paymentRoutesOptionsSchema to them. Settings a lower layer
// reads are written there, resolved (OrderGuardSettings, DedupeSettings), and made optional here.

/** Settings as a merchant writes them, beside other options: each optional (left out or undefined, it takes its default). */
type WithOptional<Settings, Others> = Flat<{ [K in keyof Settings]?: Settings[K] | undefined } & Others>;
/** One object type of an intersection's fields, so editors and type tests see the fields, not the parts. */
type Flat<T> = { [K in keyof T]: T[K] };

/** The per-order payment guard: its settings (OrderGuardSettings), each optional, and these. */
export type OrderGuardOptions = WithOptional<
  OrderGuardSettings,
  {
    /**
     * Where each order's current payment attempt and its lock are kept. Default
     * a bounded in-memory store (one process); several instances need a shared
     * one (`RedisOrderAttemptStore` from `@paymount/redis`).
     */
    store?: OrderAttemptStore | undefined;
    /**
     * A secret of this environment (at least 16 characters) that the order's transactionRequestIds are
     * derived with (HMAC-SHA256), so that an event whose id this app did not
     * make is told apart (`event.attempt.issued`) even by someone who knows
     * the order id. Keep it stable: changing it is like losing every order's
     * record. Default: ids derived from the account and the order alone.
     */
    requestIdKey?: string | undefined;
  }
>;

/** What GET /wallet/config needs. */
export type WalletRouteOptions = {
  /** The gateway identifier the service was assigned by the wallet provider: not empty. */
  gatewayId: string;
  /** Upper-case wallet network codes such as `"VISA"`, at least one. Default: AMEX, DISCOVER, JCB, MASTERCARD, VISA. */
  allowedCardNetworks?: string[] | undefined;
  /** Shown by the wallet: not empty. */
  merchantName?: string | undefined;
  /** An ISO 3166-1 alpha-2 code in upper case, e.g. `"US"`. */
  countryCode?: string | undefined;
};

/** The webhook route's time window and memory of handled events, beside its secret(s). Every duration is a whole number of milliseconds greater than 0. */
export type WebhookRouteSettings = WithOptional<
  DedupeSettings,
  {
    /**
     * Allowed distance from now, either way, of X-Timestamp and of the time
     * signed into the body (`signedTimeField`). Default 5 minutes. Every retry
     * of the service must arrive within it of the event's signed time.
     */
    toleranceMs?: number | undefined;
    /**
     * The body field (1–64 characters) holding the time the service signed the notification at
     * (ISO 8601 with a zone, or 13-digit epoch ms). A body older than
     * `toleranceMs` by it is refused (`WEBHOOK_STALE_EVENT`), whatever its
     * headers say. Default `notifyTime`.
     */
    signedTimeField?: string | undefined;
    /**
     * Refuse a body without the signed time (`WEBHOOK_MISSING_SIGNED_TIME`).
     * Default false: it is accepted, with a warning logged once, and a replay of
     * it is then stopped only while its event is remembered (`dedupeTtlMs`).
     */
    requireSignedTime?: boolean | undefined;
    /** Largest webhook body accepted, in bytes. Default 100 KiB. */
    maxBodyBytes?: number | undefined;
    /**
     * Queued processing: the route verifies each delivery, queues its event
     * and answers 200 at once, and workers run the handlers, however long they
     * take (`createWebhookQueue()` from `@paymount/bullmq`). Default: inline,
     * the handlers run inside the delivery, within the service's 10 s wait.
     */
    processing?: EventProcessing | undefined;
    /**
     * Inline handlers still running after this long log a warning that names
     * queued processing. Default 5 s, half the service's wait for an answer.
     */
    slowHandlerWarningMs?: number | undefined;
  }
>;

/**
 * The webhook route's options: exactly one of `secret` or `secrets` (a list, for rotation; each the
 * whole signing secret, at least 16 characters (`MIN_SECRET_LENGTH`), without surrounding whitespace), and its settings.
 */
export type WebhookRouteOptions = WebhookSecrets & WebhookRouteSettings;

/**
 * The options of `createPaymentRoutes`, checked once at start-up so that a typo (`notifyURL`) or a
 * secret pasted with a newline fails loudly instead of on the first payment. `TContext` is the type
 * of the framework request handed to `resolveOrder` and the event handlers: each adapter's own
 * options fill it in; core's node and fetch entries leave it `unknown`.
 */
export type PaymentRoutesOptions<TContext = unknown> = {
  /** A client, or the options to create one (then closed by `paymentRoutes.close()`). */
  client: PaymentClient | PaymentClientOptions;
  /**
   * Looks up the merchant's order on the server, `(orderId, ctx) => order | null`, sync or async:
   * the only source of the amount charged. Null (or undefined) is answered 404.
   */
  resolveOrder: ResolveOrder<TContext>;
  /**
   * The public HTTPS URL (at most 200 characters) of the mounted webhook route, sent with every payment:
   * one URL, or one per order (also handy when the app's own address is only
   * known once it listens; undefined sends none for that order). Without one,
   * run `paymentRoutes.reconcile()` on a schedule to hear of outcomes.
   */
  notifyUrl?: string | ((order: MerchantOrder) => string | undefined) | undefined;
  /** Where the shopper returns after checkout (a URL of at most 256 characters): one URL, or one per order. An order's own URL wins. */
  merchantReturnUrl?: string | ((order: MerchantOrder) => string) | undefined;
  /** The wallet payment request's settings, needed by GET /wallet/config (`404 WALLET_NOT_CONFIGURED` without them). */
  wallet?: WalletRouteOptions | undefined;
  /**
   * Origins (`https://shop.example`, no path) besides the app's own from which
   * a browser may post the checkout form, e.g. a storefront on another domain.
   * Default none: form posts from another site are refused (403). JSON calls
   * are not affected.
   */
  allowedOrigins?: string[] | undefined;
  /** The webhook route: its signing secret(s), time window and memory of handled events. */
  webhook: WebhookRouteOptions;
  /**
   * Where webhook deliveries are deduplicated. Default a bounded in-memory store (single process);
   * several instances share one (`createRedisStores` from `@paymount/redis`, `@paymount/postgres`).
   */
  store?: IdempotencyStore | undefined;
  /** The per-order payment guard: at most one charge per order. */
  orders?: OrderGuardOptions | undefined;
  /**
   * Event handlers by event name, or '*' for all, each given its own event
   * type (`'refund.succeeded': (event) => event.originalTransactionId`). More
   * can be added with `paymentRoutes.on()`.
   */
  on?: PaymentEventSubscriptions<TContext> | undefined;
  /**
   * Where paymount logs (a pino-compatible logger), through its redactor: no line holds the API key,
   * a webhook secret or a wallet token. Left out, warnings and errors
   * (every 5xx, every refused webhook delivery, every refusal by the service,
   * each once with the fix when known) go to the console (stderr), one line
   * each; a logger replaces that; `false` logs nothing.
   */
  logger?: LoggerOption | undefined;
  /**
   * Largest body of POST /checkout and POST /wallet/pay, in bytes. Default 16 KiB:
   * their bodies are `{ orderId }` and `{ orderId, token }`, a few KiB at
   * most. The webhook keeps its own `webhook.maxBodyBytes`.
   */
  bodyLimitBytes?: number | undefined;
  /**
   * How long a route waits for a request's whole body once it starts reading
   * it, in milliseconds. Default 10 s (the service's own wait for a webhook answer); a body
   * still arriving then is answered `408 BODY_READ_TIMEOUT` and its
   * connection closed, so slow senders cannot hold connections open.
   */
  bodyReadTimeoutMs?: number | undefined;
  /** `{ now() }` for the webhook time window (X-Timestamp and the signed time) and the order guard's times. Default `Date`; injectable for tests. */
  clock?: { now(): number } | undefined;
  /**
   * Spans and metrics of the routes, webhook deliveries, reconciliation and
   * (when `client` is options) the client's calls. Default: the global
   * OpenTelemetry providers, when `@opentelemetry/api` is installed; `false`: none.
   */
  telemetry?: PaymentTelemetry | undefined;
  /**
   * Check the client's credentials with the service once, just after the
   * routes are made (a query of a transaction that cannot exist, which charges
   * nothing), so a refused API key, appId or merchantId is logged at `error`
   * with its fix before the first shopper meets it. It never delays or fails
   * start-up; no answer is a warning. Once per client and process; on an
   * isolate runtime (workerd, the edge runtime) it rides with the first
   * request, whose answer waits for it (at most 5 s). Default true; `false`
   * for an app that must not call out at start.
   */
  checkCredentials?: boolean | undefined;
};
