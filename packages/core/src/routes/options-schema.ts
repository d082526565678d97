import * as z from 'zod/mini';
import { loggerOptionSchema } from '../schemas/logger-option';
import { MERCHANT_RETURN_URL_MAX, NOTIFY_URL_MAX } from '../schemas/fields';
import { MIN_SECRET_LENGTH, SURROUNDING_WHITESPACE_RULE } from '../schemas/secret-length';
import { callbackUrlSchema, type SchemaContext } from '../schemas/urls';
import { telemetryOptionsSchema } from '../telemetry/options';
import { walletPaymentRequestInputSchema } from '../wallet/input-schema';
import { DEFAULT_WEBHOOK_TOLERANCE_MS } from '../webhooks/verify-webhook';
import { DEFAULT_DEDUPE_TTL_MS } from './defaults';
import type { IdempotencyStore } from '../idempotency/store';
import type { EventProcessing } from '../webhooks/event-processing';
import type { OrderAttemptStore } from '../orders/store';
import type { PaymentClient } from '../client/types';
import type { PaymentClientOptions } from '../types/client-options';
import type { PaymentEventSubscriptions } from '../webhooks/event-handlers';
import type { WebhookRouteOptions } from '../types/route-options';
import type { MerchantOrder, ResolveOrder } from './types';

const fn = <T extends (...args: never[]) => unknown>(message: string) => z.custom<T>((value) => typeof value === 'function', message);

const objectWith = <T extends object>(methods: readonly string[], message: string) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    message,
  );

const positiveInt = z.number().check(z.int('must be a whole number'), z.positive('must be greater than 0'));

const secretSchema = z.string('must be the webhook signing secret, a string').check(
  z.minLength(MIN_SECRET_LENGTH, `must be the whole signing secret, at least ${MIN_SECRET_LENGTH} characters`),
  z.refine((secret) => !SURROUNDING_WHITESPACE_RULE.isBroken(secret), {
    message: SURROUNDING_WHITESPACE_RULE.message,
    params: { rule: SURROUNDING_WHITESPACE_RULE.rule },
  }),
);

const webhookOptionsSchema = z
  .strictObject({
    secret: z.optional(secretSchema),
    secrets: z.optional(z.readonly(z.array(secretSchema).check(z.minLength(1, 'must hold at least one secret')))),
    /**
     * Allowed distance from now, either way, of X-Timestamp and of the time
     * signed into the body (`signedTimeField`). Default 5 minutes. Every retry
     * of the service must arrive within it of the event's signed time.
     */
    toleranceMs: z.optional(positiveInt),
    /**
     * The body field holding the time the service signed the notification at
     * (ISO 8601 with a zone, or 13-digit epoch ms). A body older than
     * `toleranceMs` by it is refused (`WEBHOOK_STALE_EVENT`), whatever its
     * headers say. Default `notifyTime`.
     */
    signedTimeField: z.optional(
      z.string('must be the name of a body field').check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters')),
    ),
    /**
     * Refuse a body without the signed time (`WEBHOOK_MISSING_SIGNED_TIME`).
     * Default false: it is accepted, with a warning logged once, and a replay of
     * it is then stopped only while its event is remembered (`dedupeTtlMs`).
     */
    requireSignedTime: z.optional(z.boolean('must be true or false')),
    /** Largest webhook body accepted. Default 100 KiB. */
    maxBodyBytes: z.optional(positiveInt),
    /**
     * How long a handled event is remembered as done. Default 24 hours; at
     * least twice `toleranceMs`, so an event is remembered for as long as a
     * replay of it can pass the signed-time window.
     */
    dedupeTtlMs: z.optional(positiveInt),
    /**
     * How long a delivery being handled blocks others of the same event
     * without renewal. Default 25 s: shorter than the service's retries last
     * (about 31 s), so a crashed instance's claim frees in time for a retry.
     * A live handler's claim is renewed every third of this while it runs
     * (with a store that has renew(), as both bundled stores do), so a slow
     * handler never runs twice at once; a process paused longer than this can
     * lose its claim.
     */
    processingTtlMs: z.optional(positiveInt),
    /**
     * Queued processing: the route verifies each delivery, queues its event
     * and answers 200 at once, and workers run the handlers, however long they
     * take (`createWebhookQueue()` from `@paymount/bullmq`). Default: inline,
     * the handlers run inside the delivery, within the service's 10 s wait.
     */
    processing: z.optional(objectWith<EventProcessing>(['enqueue'], 'must be an event queue with enqueue() (createWebhookQueue() of @paymount/bullmq)')),
    /**
     * Inline handlers still running after this long log a warning that names
     * queued processing. Default 5 s, half the service's wait for an answer.
     */
    slowHandlerWarningMs: z.optional(positiveInt),
  })
  .check(
    z.refine((webhook) => (webhook.secret === undefined) !== (webhook.secrets === undefined), {
      message: 'set exactly one of `secret` or `secrets` (a list, for rotation)',
      params: { rule: 'one_secret_option' },
    }),
    // A replay passes the signed-time window for up to twice toleranceMs after the event was first handled.
    z.refine(
      (webhook) =>
        (webhook.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS) >= 2 * (webhook.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS),
      {
        message: 'dedupeTtlMs must be at least twice toleranceMs, or a replay could outlive the memory of its event',
        path: ['dedupeTtlMs'],
        params: { rule: 'covers_replay_window' },
      },
    ),
  );

/** An origin as a browser's Origin header spells it: scheme, host, port if not the default; nothing else. */
const originSchema = z.string('must be an origin string').check(
  z.refine((value) => URL.parse(value)?.origin === value && /^https?:/.test(value), {
    message: 'must be an origin such as https://shop.example (scheme, host, port; no path or trailing slash)',
    params: { rule: 'origin' },
  }),
);

const ordersOptionsSchema = z.strictObject({
  /**
   * Where each order's current payment attempt and its lock are kept. Default
   * a bounded in-memory store (one process); several instances need a shared
   * one (`RedisOrderAttemptStore` from `@paymount/redis`).
   */
  store: z.optional(
    objectWith<OrderAttemptStore>(
      ['lock', 'unlock', 'get', 'put', 'delete', 'settle', 'unsettled'],
      'must be an OrderAttemptStore (lock, unlock, get, put, delete, settle, unsettled)',
    ),
  ),
  /**
   * Longest time a payment request holds its order's lock: at least twice
   * the client's `deadlineMs` (a request may make two calls), or the routes
   * refuse to start. Default 2 × `deadlineMs` + 30 s: 210 s with the
   * client's default deadline; a client object's own `deadlineMs` counts.
   */
  lockTtlMs: z.optional(positiveInt),
  /**
   * A secret of this environment that the order's transactionRequestIds are
   * derived with (HMAC-SHA256), so that an event whose id this app did not
   * make is told apart (`event.attempt.issued`) even by someone who knows
   * the order id. Keep it stable: changing it is like losing every order's
   * record. Default: ids derived from the account and the order alone.
   */
  requestIdKey: z.optional(z.string('must be a string').check(z.minLength(16, 'must be at least 16 characters'))),
  /**
   * How long an order's attempt is remembered after its last change: past a
   * session's 30 minutes and a pending payment's settlement. Default 24 hours;
   * after that only `resolveOrder`'s `payable` guards the order.
   */
  attemptTtlMs: z.optional(positiveInt),
});

export type { OrderGuardOptions } from '../types/route-options';

const walletRules = walletPaymentRequestInputSchema.shape;

// The rules buildWalletPaymentRequest applies on every GET /wallet/config, so a bad setting fails here instead.
const walletOptionsSchema = z.strictObject({
  /** The gateway identifier the service was assigned by the wallet provider. */
  gatewayId: z.string('must be the gateway id assigned during wallet onboarding').check(z.minLength(1, 'must not be empty')),
  allowedCardNetworks: walletRules.allowedCardNetworks,
  merchantName: walletRules.merchantName,
  countryCode: walletRules.countryCode,
});

export type { WalletRouteOptions, WebhookRouteOptions, WebhookRouteSettings } from '../types/route-options';

/**
 * The handler options, checked once at start-up so that a typo (`notifyURL`)
 * or a secret pasted with a newline fails loudly instead of on the first
 * payment. `context` says how strictly callback URLs are judged: it mirrors
 * the client's `localDevelopment`. `TContext` only types the functions given.
 */
export function paymentRoutesOptionsSchema<TContext = unknown>(context: SchemaContext) {
  return z.strictObject({
    /** A client, or the options to create one (then closed by `paymentRoutes.close()`). */
    client: objectWith<PaymentClient | PaymentClientOptions>([], 'must be a PaymentClient or the options to create one'),
    /** Looks up the merchant's order on the server: the only source of the amount charged. */
    resolveOrder: fn<ResolveOrder<TContext>>('must be a function (orderId, ctx) => order | null'),
    /**
     * The public HTTPS URL of the mounted webhook route, sent with every payment:
     * one URL, or one per order (also handy when the app's own address is only
     * known once it listens; undefined sends none for that order). Without one,
     * run `paymentRoutes.reconcile()` on a schedule to hear of outcomes.
     */
    notifyUrl: z.optional(
      z.union(
        [callbackUrlSchema(NOTIFY_URL_MAX, context), fn<(order: MerchantOrder) => string | undefined>('')],
        'must be a URL or a function (order) => URL',
      ),
    ),
    /** Where the shopper returns after checkout: one URL, or one per order. An order's own URL wins. */
    merchantReturnUrl: z.optional(
      z.union(
        [callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context), fn<(order: MerchantOrder) => string>('')],
        'must be a URL or a function (order) => URL',
      ),
    ),
    /** Needed by GET /wallet/config. */
    wallet: z.optional(walletOptionsSchema),
    /**
     * Origins (`https://shop.example`, no path) besides the app's own from which
     * a browser may post the checkout form, e.g. a storefront on another domain.
     * Default none: form posts from another site are refused (403). JSON calls
     * are not affected.
     */
    allowedOrigins: z.optional(z.array(originSchema, 'must be a list of origins')),
    /** The webhook route: its signing secret(s), time window and memory of handled events. */
    // Typed as the union (exactly one of secret or secrets); the identity step lets the looser object schema check it.
    webhook: z.pipe(
      z.pipe(
        z.custom<WebhookRouteOptions>(),
        z.transform((webhook): unknown => webhook),
      ),
      webhookOptionsSchema,
    ),
    /** Where webhook deliveries are deduplicated. Default a bounded in-memory store (single process). */
    store: z.optional(
      objectWith<IdempotencyStore>(['claim', 'release', 'complete', 'state'], 'must be an IdempotencyStore with claim(), release(), complete() and state()'),
    ),
    /** The per-order payment guard: at most one charge per order. */
    orders: z.optional(ordersOptionsSchema),
    /**
     * Event handlers by event name, or '*' for all, each given its own event
     * type (`'refund.succeeded': (event) => event.originalTransactionId`). More
     * can be added with `paymentRoutes.on()`.
     */
    on: z.optional(z.pipe(z.custom<PaymentEventSubscriptions<TContext>>(), z.record(z.string(), fn('must be a function (event, ctx) => void')))),
    /**
     * Where paymount logs, through its redactor. Left out, warnings and errors
     * (every 5xx, every refused webhook delivery, every refusal by the service,
     * each once with the fix when known) go to the console (stderr), one line
     * each; a logger replaces that; `false` logs nothing.
     */
    logger: z.optional(loggerOptionSchema),
    /**
     * Largest body of POST /checkout and POST /wallet/pay. Default 16 KiB:
     * their bodies are `{ orderId }` and `{ orderId, token }`, a few KiB at
     * most. The webhook keeps its own `webhook.maxBodyBytes`.
     */
    bodyLimitBytes: z.optional(positiveInt),
    /**
     * How long a route waits for a request's whole body once it starts reading
     * it. Default 10 s (the service's own wait for a webhook answer); a body
     * still arriving then is answered `408 BODY_READ_TIMEOUT` and its
     * connection closed, so slow senders cannot hold connections open.
     */
    bodyReadTimeoutMs: z.optional(positiveInt),
    /** Clock for the webhook timestamp window; injectable for tests. */
    clock: z.optional(objectWith<{ now(): number }>(['now'], 'must be an object with a now() method')),
    /**
     * Spans and metrics of the routes, webhook deliveries, reconciliation and
     * (when `client` is options) the client's calls. Default: the global
     * OpenTelemetry providers, when `@opentelemetry/api` is installed; `false`: none.
     */
    telemetry: telemetryOptionsSchema,
  });
}

export type { PaymentRoutesOptions } from '../types/route-options';
