import * as z from 'zod/mini';
import type { PaymentClient } from '../client/types';
import type { OrderAttemptStore } from '../orders/store';
import type { PaymentClientOptions } from '../schemas/client-option-types';
import { loggerOptionSchema, telemetryOptionsSchema } from '../schemas/client-options';
import { MERCHANT_RETURN_URL_MAX, NOTIFY_URL_MAX } from '../schemas/fields';
import { walletPaymentRequestInputSchema } from '../schemas/requests';
import { callbackUrlSchema, type SchemaContext } from '../schemas/urls';
import { MIN_SECRET_LENGTH, SURROUNDING_WHITESPACE_RULE } from '../shared/validation';
import type { IdempotencyStore } from '../webhook-dedupe/store';
import type { EventProcessing, PaymentEventSubscriptions } from '../webhooks/event-handlers';
import { DEFAULT_WEBHOOK_TOLERANCE_MS } from '../webhooks/verify-webhook';
import type { MerchantOrder, ResolveOrder, WebhookRouteOptions } from './types';

/**
 * Every default of the payment routes' own options, in one place; config.ts
 * applies them. The client's, the webhook verifier's and the signed-time
 * field's defaults stay with the code that also runs without the routes, and
 * a reconcile run's with the order guard (orders/reconcile.ts).
 */

/**
 * The browser routes' bodies are `{ orderId }` and `{ orderId, token }`: a
 * wallet token is 1 to 4 KiB (the sandbox's about 0.75 KiB), an order id at
 * most 128 characters, so 16 KiB holds any of them with room to spare.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * The service gives a webhook receiver 10 s to answer, and a genuine body (a
 * delivery, a browser's `{ orderId, token }`) arrives in milliseconds: a body
 * still trickling in after that long is someone holding connections open.
 */
export const DEFAULT_BODY_READ_TIMEOUT_MS = 10_000;

/** How long a handled event is remembered by default: far past every retry and redelivery of the service. */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;

/**
 * Under the service's retry schedule (1, 2, 4, 8, 16 s) a delivery to a crashed
 * instance fails fast and its last retry comes about 31 s after the first: a
 * claim held longer would outlive every retry and the event would be lost. 25 s
 * is still well past the service's 10 s wait for an answer.
 */
export const DEFAULT_PROCESSING_TTL_MS = 25_000;

/** Half the service's 10 s wait for a webhook answer: inline handlers slower than this are warned about. */
export const DEFAULT_SLOW_HANDLER_WARNING_MS = 5_000;

/** Past a session's 30 minutes and the settlement of a pending payment, with a wide margin. */
export const DEFAULT_ATTEMPT_TTL_MS = 24 * 60 * 60_000;

/**
 * A payment request may make two calls under its order's lock (expire a
 * session, then pay), each up to the client's whole-call deadline: the lock
 * outlives both, so it never frees while a call of its holder is in flight.
 */
export function defaultLockTtlMs(deadlineMs: number): number {
  return 2 * deadlineMs + 30_000;
}

// The rules of each option (an adapter's own: adapter-options.ts). What each option means, and its default, is documented once, on the
// public types in routes/types.ts, which a type test holds to these schemas.

/** A function option; `rule` names the broken rule for a caller that branches on it (default `custom`). */
export const fn = <T extends (...args: never[]) => unknown>(message: string, rule = 'custom') =>
  z.custom<T>((value) => typeof value === 'function', { message, params: { rule } });

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
    toleranceMs: z.optional(positiveInt),
    signedTimeField: z.optional(
      z.string('must be the name of a body field').check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters')),
    ),
    requireSignedTime: z.optional(z.boolean('must be true or false')),
    maxBodyBytes: z.optional(positiveInt),
    dedupeTtlMs: z.optional(positiveInt),
    processingTtlMs: z.optional(positiveInt),
    processing: z.optional(objectWith<EventProcessing>(['enqueue'], 'must be an event queue with enqueue() (createWebhookQueue() of @paymount/bullmq)')),
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
  store: z.optional(
    objectWith<OrderAttemptStore>(
      ['lock', 'unlock', 'get', 'put', 'delete', 'settle', 'unsettled'],
      'must be an OrderAttemptStore (lock, unlock, get, put, delete, settle, unsettled)',
    ),
  ),
  lockTtlMs: z.optional(positiveInt),
  requestIdKey: z.optional(z.string('must be a string').check(z.minLength(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`))),
  attemptTtlMs: z.optional(positiveInt),
});

export type { OrderGuardOptions } from './types';

const walletRules = walletPaymentRequestInputSchema.shape;

// The rules buildWalletPaymentRequest applies on every GET /wallet/config, so a bad setting fails here instead.
const walletOptionsSchema = z.strictObject({
  gatewayId: z.string('must be the gateway id assigned during wallet onboarding').check(z.minLength(1, 'must not be empty')),
  allowedCardNetworks: walletRules.allowedCardNetworks,
  merchantName: walletRules.merchantName,
  countryCode: walletRules.countryCode,
});

export type { WalletRouteOptions, WebhookRouteOptions, WebhookRouteSettings } from './types';

/**
 * The handler options, checked once at start-up so that a typo (`notifyURL`)
 * or a secret pasted with a newline fails loudly instead of on the first
 * payment. `context` says how strictly callback URLs are judged: it mirrors
 * the client's `localDevelopment`. `TContext` only types the functions given.
 */
export function paymentRoutesOptionsSchema<TContext = unknown>(context: SchemaContext) {
  return z.strictObject({
    client: objectWith<PaymentClient | PaymentClientOptions>([], 'must be a PaymentClient or the options to create one'),
    resolveOrder: fn<ResolveOrder<TContext>>('must be a function (orderId, ctx) => order | null'),
    notifyUrl: z.optional(
      z.union(
        [callbackUrlSchema(NOTIFY_URL_MAX, context), fn<(order: MerchantOrder) => string | undefined>('')],
        'must be a URL or a function (order) => URL',
      ),
    ),
    merchantReturnUrl: z.optional(
      z.union(
        [callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context), fn<(order: MerchantOrder) => string>('')],
        'must be a URL or a function (order) => URL',
      ),
    ),
    wallet: z.optional(walletOptionsSchema),
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
    store: z.optional(
      objectWith<IdempotencyStore>(['claim', 'release', 'complete', 'state'], 'must be an IdempotencyStore with claim(), release(), complete() and state()'),
    ),
    orders: z.optional(ordersOptionsSchema),
    on: z.optional(z.pipe(z.custom<PaymentEventSubscriptions<TContext>>(), z.record(z.string(), fn('must be a function (event, ctx) => void')))),
    logger: z.optional(loggerOptionSchema),
    bodyLimitBytes: z.optional(positiveInt),
    bodyReadTimeoutMs: z.optional(positiveInt),
    clock: z.optional(objectWith<{ now(): number }>(['now'], 'must be an object with a now() method')),
    telemetry: telemetryOptionsSchema,
    checkCredentials: z.optional(z.boolean('must be true or false')),
  });
}

export type { PaymentRoutesOptions } from './types';
