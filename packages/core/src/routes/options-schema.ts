import { z } from 'zod';
import { loggerOptionSchema } from '../schemas/logger-option';
import { MERCHANT_RETURN_URL_MAX, NOTIFY_URL_MAX } from '../schemas/fields';
import { MIN_SECRET_LENGTH, SURROUNDING_WHITESPACE_RULE } from '../schemas/secret-length';
import { callbackUrlSchema, type SchemaContext } from '../schemas/urls';
import { telemetryOptionsSchema } from '../telemetry/options';
import { walletPaymentRequestInputSchema } from '../wallet/payment-request';
import { DEFAULT_WEBHOOK_TOLERANCE_MS } from '../webhooks/verify-webhook';
import { DEFAULT_DEDUPE_TTL_MS } from './webhook';

const fn = (message: string) => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', message);

const objectWith = (methods: readonly string[], message: string) =>
  z.custom<object>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    message,
  );

const positiveInt = z.number().int('must be a whole number').positive('must be greater than 0');

const secretSchema = z
  .string('must be the webhook signing secret, a string')
  .min(MIN_SECRET_LENGTH, `must be the whole signing secret, at least ${MIN_SECRET_LENGTH} characters`)
  .refine((secret) => !SURROUNDING_WHITESPACE_RULE.isBroken(secret), {
    message: SURROUNDING_WHITESPACE_RULE.message,
    params: { rule: SURROUNDING_WHITESPACE_RULE.rule },
  });

const webhookOptionsSchema = z
  .strictObject({
    secret: secretSchema.optional(),
    secrets: z.array(secretSchema).min(1, 'must hold at least one secret').optional(),
    toleranceMs: positiveInt.optional(),
    signedTimeField: z.string('must be the name of a body field').min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
    requireSignedTime: z.boolean('must be true or false').optional(),
    maxBodyBytes: positiveInt.optional(),
    dedupeTtlMs: positiveInt.optional(),
    processingTtlMs: positiveInt.optional(),
  })
  .refine((webhook) => (webhook.secret === undefined) !== (webhook.secrets === undefined), {
    message: 'set exactly one of `secret` or `secrets` (a list, for rotation)',
    params: { rule: 'one_secret_option' },
  })
  // A replay passes the signed-time window for up to twice toleranceMs after the event was first handled.
  .refine(
    (webhook) =>
      (webhook.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS) >= 2 * (webhook.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS),
    {
      message: 'dedupeTtlMs must be at least twice toleranceMs, or a replay could outlive the memory of its event',
      path: ['dedupeTtlMs'],
      params: { rule: 'covers_replay_window' },
    },
  );

/** An origin as a browser's Origin header spells it: scheme, host, port if not the default; nothing else. */
const originSchema = z
  .string('must be an origin string')
  .refine((value) => URL.parse(value)?.origin === value && /^https?:/.test(value), {
    message: 'must be an origin such as https://shop.example (scheme, host, port; no path or trailing slash)',
    params: { rule: 'origin' },
  });

const ordersOptionsSchema = z.strictObject({
  store: objectWith(
    ['lock', 'unlock', 'get', 'put', 'delete', 'settle', 'unsettled'],
    'must be an OrderAttemptStore (lock, unlock, get, put, delete, settle, unsettled)',
  ).optional(),
  lockTtlMs: positiveInt.optional(),
  attemptTtlMs: positiveInt.optional(),
});

const walletRules = walletPaymentRequestInputSchema.shape;

// The rules buildWalletPaymentRequest applies on every GET /wallet/config, so a bad setting fails here instead.
const walletOptionsSchema = z.strictObject({
  gatewayId: z.string('must be the gateway id assigned during wallet onboarding').min(1, 'must not be empty'),
  allowedCardNetworks: walletRules.allowedCardNetworks,
  merchantName: walletRules.merchantName,
  countryCode: walletRules.countryCode,
});

/**
 * The handler options, checked once at start-up so that a typo (`notifyURL`)
 * or a secret pasted with a newline fails loudly instead of on the first
 * payment. `context` says how strictly callback URLs are judged: it mirrors
 * the client's `localDevelopment`.
 */
export function paymentRoutesOptionsSchema(context: SchemaContext) {
  return z.strictObject({
    client: objectWith([], 'must be a PaymentClient or the options to create one'),
    resolveOrder: fn('must be a function (orderId, ctx) => order | null'),
    notifyUrl: z
      .union([callbackUrlSchema(NOTIFY_URL_MAX, context), fn('')], 'must be a URL or a function (order) => URL')
      .optional(),
    merchantReturnUrl: z
      .union([callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context), fn('')], 'must be a URL or a function (order) => URL')
      .optional(),
    wallet: walletOptionsSchema.optional(),
    allowedOrigins: z.array(originSchema, 'must be a list of origins').optional(),
    webhook: webhookOptionsSchema,
    store: objectWith(
      ['claim', 'release', 'complete', 'state'],
      'must be an IdempotencyStore with claim(), release(), complete() and state()',
    ).optional(),
    orders: ordersOptionsSchema.optional(),
    on: z.record(z.string(), fn('must be a function (event, ctx) => void')).optional(),
    logger: loggerOptionSchema.optional(),
    bodyLimitBytes: positiveInt.optional(),
    clock: objectWith(['now'], 'must be an object with a now() method').optional(),
    telemetry: telemetryOptionsSchema,
  });
}
