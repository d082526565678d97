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

// The rules of each option (an adapter's own: adapter-options.ts). What each option means, and its default, is documented once, on the
// public types in types/route-options.ts, which a type test holds to these schemas.

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

export type { OrderGuardOptions } from '../types/route-options';

const walletRules = walletPaymentRequestInputSchema.shape;

// The rules buildWalletPaymentRequest applies on every GET /wallet/config, so a bad setting fails here instead.
const walletOptionsSchema = z.strictObject({
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

export type { PaymentRoutesOptions } from '../types/route-options';
