import { createPaymentClient } from '../client/create-client';
import type { PaymentClient } from '../client/types';
import { PaymentValidationError, type ValidationIssue } from '../errors';
import type { IdempotencyStore } from '../idempotency/store';
import { MemoryIdempotencyStore } from '../idempotency/memory-store';
import { createRedactingLogger, Redactor, type Logger } from '../logger';
import { MemoryOrderAttemptStore } from '../orders/memory-store';
import type { OrderAttemptStore } from '../orders/store';
import { DEFAULT_DEADLINE_MS, paymentClientOptionsSchema } from '../schemas/client-options';
import type { PaymentClientOptions } from '../types/client-options';
import type { PaymentTelemetry } from '../types/telemetry';
import { checkAgainst, toValidationIssues, type ParsableSchema } from '../validation';
import { EVENT_NAMES, unknownEventIssue, type PaymentEventSubscriptions } from '../webhooks/event-handlers';
import type { EventProcessing } from '../webhooks/event-processing';
import { DEFAULT_SIGNED_TIME_FIELD } from '../webhooks/signed-time';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES, DEFAULT_WEBHOOK_TOLERANCE_MS, secretsOf } from '../webhooks/verify-webhook';
import {
  DEFAULT_ATTEMPT_TTL_MS,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_BODY_READ_TIMEOUT_MS,
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_PROCESSING_TTL_MS,
  DEFAULT_SLOW_HANDLER_WARNING_MS,
  defaultLockTtlMs,
} from './defaults';
import { withAdapterOptions, type AdapterOptionKinds } from './adapter-options';
import { keyFingerprint } from './credentials-check';
import { clockFix } from './failure-log';
import { paymentRoutesOptionsSchema } from './options-schema';
import type { PaymentRoutesOptions, WalletRouteOptions } from './types';

/** The options of `createPaymentRoutes` resolved once: the client owned or given, every default applied. */
export interface PaymentRoutesConfig {
  client: PaymentClient;
  /** True when the routes created the client from options: then `close()` closes it. */
  ownsClient: boolean;
  /** Whether the routes check the client's credentials with the service once they are made. */
  checkCredentials: boolean;
  /** The fingerprint of the options' API key (a given client's key is not known to the routes): the account checked once per process. */
  apiKeyFingerprint: string | undefined;
  /** The client's whole-call deadline: a given client's own, else its options' (or the default). */
  deadlineMs: number;
  resolveOrder: PaymentRoutesOptions['resolveOrder'];
  notifyUrl: PaymentRoutesOptions['notifyUrl'];
  merchantReturnUrl: PaymentRoutesOptions['merchantReturnUrl'];
  wallet: WalletRouteOptions | undefined;
  allowedOrigins: ReadonlySet<string>;
  on: PaymentEventSubscriptions;
  /** Knows every secret of the options, so neither the log nor a span attribute ever holds one. */
  redactor: Redactor;
  logger: Logger;
  telemetry: PaymentTelemetry | undefined;
  clock: { now(): number };
  /** How to fix a webhook delivery refused for its time, judged from the client's clock and the routes'. */
  clockFix: string;
  bodyLimitBytes: number;
  bodyReadTimeoutMs: number;
  orders: {
    store: OrderAttemptStore;
    lockTtlMs: number;
    attemptTtlMs: number;
    requestIdKey: string | undefined;
  };
  webhook: {
    secrets: readonly string[];
    toleranceMs: number;
    maxBodyBytes: number;
    signedTimeField: string;
    requireSignedTime: boolean;
    dedupeTtlMs: number;
    processingTtlMs: number;
    store: IdempotencyStore;
    processing: EventProcessing | undefined;
    slowHandlerWarningMs: number;
  };
}

/** What a refusal of the options names them as. */
const OPTIONS_SUBJECT = 'payment routes options';

function isPaymentClient(value: unknown): value is PaymentClient {
  const candidate = value as Partial<PaymentClient> | null | undefined;
  return typeof candidate?.createCheckoutSession === 'function' && typeof candidate.directPayment === 'function';
}

/** A lock shorter than two calls could free while its holder's call is in flight, and a second request would pay too. */
function checkLockTtl(lockTtlMs: number, deadlineMs: number): void {
  if (lockTtlMs >= 2 * deadlineMs) return;
  throw new PaymentValidationError(OPTIONS_SUBJECT, [
    {
      path: 'orders.lockTtlMs',
      rule: 'lock_outlives_calls',
      message: `must be at least twice the client's deadlineMs (${deadlineMs} ms): ${2 * deadlineMs} or more, or leave it unset (default ${defaultLockTtlMs(deadlineMs)})`,
    },
  ]);
}

function issuesOf(schema: ParsableSchema, value: unknown, under = ''): ValidationIssue[] {
  const result = checkAgainst(schema, value);
  if (result.success) return [];
  return toValidationIssues(result.error.issues, value, schema).map((issue) => ({ ...issue, path: [under, issue.path].filter(Boolean).join('.') }));
}

/**
 * Every issue of the options in one error: the routes' own, the adapter's
 * own (`adapterOptions`), the client's options (when `client` is options)
 * and the event names in `on`, so a merchant fixes them in one round.
 */
function assertValidOptions(
  options: PaymentRoutesOptions,
  clientOptions: PaymentClientOptions | undefined,
  localDevelopment: boolean,
  adapterOptions: AdapterOptionKinds | undefined,
): void {
  const on: unknown = options?.on;
  const issues = [
    ...issuesOf(withAdapterOptions(paymentRoutesOptionsSchema({ localDevelopment }), adapterOptions), options),
    ...(clientOptions !== null && typeof clientOptions === 'object' ? issuesOf(paymentClientOptionsSchema, clientOptions, 'client') : []),
    ...(on !== null && typeof on === 'object' ? Object.keys(on).filter((name) => !EVENT_NAMES.includes(name)).map((name) => unknownEventIssue(name, `on.${name}`)) : []),
  ];
  if (issues.length > 0) throw new PaymentValidationError(OPTIONS_SUBJECT, issues);
}

/**
 * Validates the options (callback URLs judged as strictly as the client's
 * `localDevelopment` says; an adapter's own options by their kinds) and
 * resolves them into the one config the routes read, which leaves the
 * adapter's own out. Throws PaymentValidationError for options that break a rule.
 */
export function resolvePaymentRoutesConfig(options: PaymentRoutesOptions, adapterOptions?: AdapterOptionKinds): PaymentRoutesConfig {
  const givenClient = isPaymentClient(options?.client) ? options.client : undefined;
  const clientOptions = givenClient === undefined ? (options?.client as PaymentClientOptions | undefined) : undefined;
  // A client object judges callback URLs itself, on every call, by a localDevelopment the routes cannot see.
  const localDevelopment = givenClient !== undefined || clientOptions?.localDevelopment === true;
  assertValidOptions(options, clientOptions, localDevelopment, adapterOptions);

  const secrets = secretsOf(options.webhook);
  const redactor = new Redactor();
  secrets.forEach((secret) => redactor.addSecret(secret));
  redactor.addSecret(clientOptions?.apiKey);
  redactor.addSecret(options.orders?.requestIdKey);

  // The routes log each failure once, where it becomes the answer: their own client only speaks to a logger given on purpose.
  const client =
    givenClient ?? createPaymentClient({ logger: options.logger ?? false, telemetry: options.telemetry, ...(clientOptions as PaymentClientOptions) });
  const deadlineMs = client.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const lockTtlMs = options.orders?.lockTtlMs ?? defaultLockTtlMs(deadlineMs);
  checkLockTtl(lockTtlMs, deadlineMs);

  const clock = options.clock ?? Date;
  const dedupeTtlMs = options.webhook.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  return {
    client,
    ownsClient: givenClient === undefined,
    checkCredentials: options.checkCredentials ?? true,
    apiKeyFingerprint: clientOptions === undefined ? undefined : keyFingerprint(clientOptions.apiKey),
    deadlineMs,
    resolveOrder: options.resolveOrder,
    notifyUrl: options.notifyUrl,
    merchantReturnUrl: options.merchantReturnUrl,
    wallet: options.wallet,
    allowedOrigins: new Set(options.allowedOrigins),
    on: options.on ?? {},
    redactor,
    logger: createRedactingLogger(options.logger, redactor),
    telemetry: options.telemetry,
    clock,
    clockFix: clockFix(clientOptions?.clock, options.clock),
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    bodyReadTimeoutMs: options.bodyReadTimeoutMs ?? DEFAULT_BODY_READ_TIMEOUT_MS,
    orders: {
      store: options.orders?.store ?? new MemoryOrderAttemptStore({ clock }),
      lockTtlMs,
      attemptTtlMs: options.orders?.attemptTtlMs ?? DEFAULT_ATTEMPT_TTL_MS,
      requestIdKey: options.orders?.requestIdKey,
    },
    webhook: {
      secrets,
      toleranceMs: options.webhook.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS,
      maxBodyBytes: options.webhook.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES,
      signedTimeField: options.webhook.signedTimeField ?? DEFAULT_SIGNED_TIME_FIELD,
      requireSignedTime: options.webhook.requireSignedTime ?? false,
      dedupeTtlMs,
      // A claim never outlives the memory of the event it guards.
      processingTtlMs: Math.min(options.webhook.processingTtlMs ?? DEFAULT_PROCESSING_TTL_MS, dedupeTtlMs),
      store: options.store ?? new MemoryIdempotencyStore(options.clock ? { clock: options.clock } : {}),
      processing: options.webhook.processing,
      slowHandlerWarningMs: options.webhook.slowHandlerWarningMs ?? DEFAULT_SLOW_HANDLER_WARNING_MS,
    },
  };
}
