import * as z from 'zod/mini';
import type { PaymentClient } from '../client/types';
import type { OrderAttemptStore } from '../orders/store';
import type { PaymentClientOptions } from '../schemas/client-option-types';
import { DEFAULT_DEADLINE_MS, defaulted, fn, loggerOptionSchema, objectWith, positiveInt, type ResolvedOptions, telemetryOptionsSchema } from '../schemas/client-options';
import { MERCHANT_RETURN_URL_MAX, NOTIFY_URL_MAX } from '../schemas/fields';
import { walletPaymentRequestInputSchema } from '../schemas/requests';
import { callbackUrlSchema, type SchemaContext } from '../schemas/urls';
import { MIN_SECRET_LENGTH, SURROUNDING_WHITESPACE_RULE } from '../shared/validation';
import type { IdempotencyStore } from '../webhook-dedupe/store';
import type { EventProcessing, PaymentEventSubscriptions } from '../webhooks/event-handlers';
import { DEFAULT_SIGNED_TIME_FIELD } from '../webhooks/signature';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES, DEFAULT_WEBHOOK_TOLERANCE_MS } from '../webhooks/verify-webhook';
import type { MerchantOrder, ResolveOrder, WebhookRouteOptions } from './types';

// Each option's rule and default are written once, here. Its type and what it means are written once
// too, zod-free, on the declaration merchants read: the public options type in routes/types.ts, or the
// resolved settings a lower layer reads, from which the public type is derived (OrderGuardSettings,
// DedupeSettings). A declaration emitted from a schema keeps no JSDoc and would import zod, so neither
// is derived from the schema; test/routes-options.test-d.ts holds them to it. The client's, the webhook verifier's and the signed-time field's defaults stay
// with the code that also runs without the routes, and a reconcile run's with the order guard.

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
    toleranceMs: defaulted(positiveInt, DEFAULT_WEBHOOK_TOLERANCE_MS),
    signedTimeField: defaulted(
      z.string('must be the name of a body field').check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters')),
      DEFAULT_SIGNED_TIME_FIELD,
    ),
    requireSignedTime: defaulted(z.boolean('must be true or false'), false),
    maxBodyBytes: defaulted(positiveInt, DEFAULT_WEBHOOK_MAX_BODY_BYTES),
    // Far past every retry and redelivery of the service.
    dedupeTtlMs: defaulted(positiveInt, 24 * 60 * 60_000),
    // Under the service's retry schedule (1, 2, 4, 8, 16 s) a delivery to a crashed instance fails fast and its last
    // retry comes about 31 s after the first: a claim held longer would outlive every retry and the event would be
    // lost. 25 s is still well past the service's 10 s wait for an answer.
    processingTtlMs: defaulted(positiveInt, 25_000),
    processing: z.optional(objectWith<EventProcessing>(['enqueue'], 'must be an event queue with enqueue() (createWebhookQueue() of @paymount/bullmq)')),
    // Half the service's 10 s wait for a webhook answer.
    slowHandlerWarningMs: defaulted(positiveInt, 5_000),
  })
  .check(
    z.refine((webhook) => (webhook.secret === undefined) !== (webhook.secrets === undefined), {
      message: 'set exactly one of `secret` or `secrets` (a list, for rotation)',
      params: { rule: 'one_secret_option' },
    }),
    // A replay passes the signed-time window for up to twice toleranceMs after the event was first handled.
    z.refine(
      (webhook) =>
        (webhook.dedupeTtlMs as number) >= 2 * (webhook.toleranceMs as number),
      {
        message: 'dedupeTtlMs must be at least twice toleranceMs, or a replay could outlive the memory of its event',
        path: ['dedupeTtlMs'],
        params: { rule: 'covers_replay_window' },
      },
    ),
  );

/** The webhook route's options once parsed: both secret options still as given (the config makes them one list). */
export type ResolvedWebhookOptions = ResolvedOptions<typeof webhookOptionsSchema>;

/** An origin as a browser's Origin header spells it: scheme, host, port if not the default; nothing else. */
const originSchema = z.string('must be an origin string').check(
  z.refine((value) => URL.parse(value)?.origin === value && /^https?:/.test(value), {
    message: 'must be an origin such as https://shop.example (scheme, host, port; no path or trailing slash)',
    params: { rule: 'origin' },
  }),
);

/**
 * A payment request may make two calls under its order's lock (expire a session, then pay), each up to the
 * client's whole-call deadline: the lock outlives both, so it never frees while a call of its holder is in flight.
 */
export const lockTtlDefault = (deadlineMs: number): number => 2 * deadlineMs + 30_000;

const ordersOptionsSchema = (deadlineMs: number) =>
  z.strictObject({
  store: z.optional(
    objectWith<OrderAttemptStore>(
      ['lock', 'unlock', 'get', 'put', 'delete', 'settle', 'unsettled'],
      'must be an OrderAttemptStore (lock, unlock, get, put, delete, settle, unsettled)',
    ),
  ),
  lockTtlMs: defaulted(positiveInt, lockTtlDefault(deadlineMs)),
  requestIdKey: z.optional(z.string('must be a string').check(z.minLength(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`))),
  // Past a session's 30 minutes and the settlement of a pending payment, with a wide margin.
  attemptTtlMs: defaulted(positiveInt, 24 * 60 * 60_000),
});

/** The order guard's options once parsed. */
export type ResolvedOrderOptions = ResolvedOptions<ReturnType<typeof ordersOptionsSchema>>;

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
 * payment. `context` says how strictly callback URLs are judged (it mirrors
 * the client's `localDevelopment`) and the client's deadline the order lock's
 * default follows. `TContext` only types the functions given.
 */
export function paymentRoutesOptionsSchema<TContext = unknown>(context: SchemaContext & { deadlineMs?: number }) {
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
    orders: z.optional(z.prefault(ordersOptionsSchema(context.deadlineMs ?? DEFAULT_DEADLINE_MS), {})),
    on: z.optional(z.pipe(z.custom<PaymentEventSubscriptions<TContext>>(), z.record(z.string(), fn('must be a function (event, ctx) => void')))),
    logger: z.optional(loggerOptionSchema),
    // The browser routes' bodies are `{ orderId }` and `{ orderId, token }`: a wallet token is 1 to 4 KiB (the
    // sandbox's about 0.75 KiB), an order id at most 128 characters, so 16 KiB holds any of them with room to spare.
    bodyLimitBytes: defaulted(positiveInt, 16 * 1024),
    // The service gives a webhook receiver 10 s to answer, and a genuine body arrives in milliseconds: a body
    // still trickling in after that long is someone holding connections open.
    bodyReadTimeoutMs: defaulted(positiveInt, 10_000),
    clock: z.optional(objectWith<{ now(): number }>(['now'], 'must be an object with a now() method')),
    telemetry: telemetryOptionsSchema,
    checkCredentials: defaulted(z.boolean('must be true or false'), true),
  });
}

export type { PaymentRoutesOptions } from './types';
