import { createPaymentClient, generateTransactionRequestId } from '../client/payment-client';
import type { PaymentClient } from '../client/types';
import { clockFix } from '../http/error-answers';
import { MemoryOrderAttemptStore, type OrderAttemptStore } from '../orders/store';
import { platform } from '../platform/current';
import type { PaymentClientOptions } from '../schemas/client-option-types';
import { DEFAULT_DEADLINE_MS, paymentClientOptionsSchema } from '../schemas/client-options';
import { PaymentApiError, PaymentError, PaymentNotFoundError, PaymentRateLimitError, PaymentValidationError, type ValidationIssue } from '../shared/errors';
import { createRedactingLogger, type Logger, Redactor } from '../shared/logger';
import { checkAgainst, type ParsableSchema, toValidationIssues } from '../shared/validation';
import { type IdempotencyStore, MemoryIdempotencyStore } from '../webhook-dedupe/store';
import { EVENT_NAMES, type PaymentEventSubscriptions, unknownEventIssue } from '../webhooks/event-handlers';
import { secretsOf } from '../webhooks/verify-webhook';
import { type AdapterOptionKinds, withAdapterOptions } from './adapter-options';
import type { ResolvedOptions } from '../schemas/client-options';
import { lockTtlDefault, paymentRoutesOptionsSchema, type ResolvedOrderOptions, type ResolvedWebhookOptions } from './options-schema';
import type { PaymentRoutesOptions } from './types';
import type { SchemaContext } from '../schemas/urls';

let warned = false;

/**
 * On a runtime where a request may land in a fresh isolate (workerd, the
 * edge runtime), a memory store holds what one isolate saw: the one-order-one-
 * charge guard and webhook deduplication then protect nothing across requests.
 * Said once per isolate, at start-up, through the logger (the console by default).
 */
export function warnIfMemoryIsIsolated(stores: { orders: OrderAttemptStore; webhook: IdempotencyStore }, logger: Logger): void {
  const runtime = platform.isolatedMemory();
  if (runtime === undefined || warned) return;
  const inMemory = [
    ...(stores.orders instanceof MemoryOrderAttemptStore ? ['orders.store'] : []),
    ...(stores.webhook instanceof MemoryIdempotencyStore ? ['store'] : []),
  ];
  if (inMemory.length === 0) return;
  warned = true;
  logger.warn(
    { runtime, inMemory },
    `paymount's in-memory stores protect nothing across requests on ${runtime}: each request may run in a new isolate, ` +
      'so the one-order-one-charge guard and webhook deduplication hold only within one. Pass stores every isolate shares ' +
      '(`store: stores.idempotency`, `orders: { store: stores.orders }`): on Cloudflare Workers `durableObjectStores(env.PAYMOUNT_STATE)` ' +
      'from @paymount/cloudflare; on Deno Deploy `denoKvStores(await Deno.openKv())` from @paymount/deno-kv; on any of them, ' +
      "your PostgreSQL through `createPostgresStores(fromNeon(pool))` (Neon's serverless Pool) from @paymount/postgres, or on Workers " +
      'with nodejs_compat `fromPostgresJs(sql)` (postgres.js over cloudflare:sockets).',
  );
}

/**
 * The one answer the check waits for: long enough for a slow service, short
 * enough that a process which closes the routes is not kept waiting by it.
 */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * The same, when the check rides with a request (an isolate runtime): that
 * request's answer waits for it, so it is held to less than the 10 s the
 * service gives a webhook delivery.
 */
const RIDING_CHECK_TIMEOUT_MS = 5_000;

/** The prefix of the transactionRequestId the check asks for, so the service's logs say what the query was. */
const CHECK_ID_PREFIX = 'paymount-credentials-check-';

// Routes made per request (a factory called on every request, a Worker) would otherwise ask on every request:
// each client object, and each account an options-made client speaks for, is checked once per process.
const checkedClients = new WeakSet<PaymentClient>();
const checkedAccounts = new Set<string>();
/** Forgetting every account past this many only means asking again: no process holds that many keys. */
const MAX_CHECKED_ACCOUNTS = 1_000;

/**
 * A short fingerprint of an API key (32-bit FNV-1a): enough to tell two keys of one account apart in
 * the once-per-process memory above, which then holds no key.
 */
export function keyFingerprint(apiKey: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < apiKey.length; i++) hash = Math.imul(hash ^ apiKey.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/** True the first time a client (or the account and key it speaks for) is seen; later routes of it skip the check. */
function firstCheckOf(client: PaymentClient, fingerprint: string | undefined): boolean {
  if (fingerprint === undefined) {
    if (checkedClients.has(client)) return false;
    checkedClients.add(client);
    return true;
  }
  const account = [client.baseUrl, client.appId, client.merchantId, fingerprint].join('\n');
  if (checkedAccounts.has(account)) return false;
  if (checkedAccounts.size >= MAX_CHECKED_ACCOUNTS) checkedAccounts.clear();
  checkedAccounts.add(account);
  return true;
}

const KEY_FIX =
  'set `client.apiKey` to the key of this environment: the merchant portal shows it (the application, payment integration tab, security key area). ' +
  'A test key works in the test environment only and a production key in production; a regenerated key replaces the old one once its grace period ends. ' +
  "A sandbox's key works against that sandbox only: against @paymount/sandbox use `sandbox.clientOptions()` (its key and its `baseUrl`), against the service its `baseUrl` and a portal key. " +
  "The service's message says which rule failed: a clock more than 10 minutes off (check this server's time) is refused the same way";

const ACCOUNT_FIX =
  "check `client.appId` and `client.merchantId` against the merchant portal's application, and that this server's address is on the application's IP allow-list there " +
  '(the service refuses any other address at once)';

/** How to fix a refusal of the credentials, by the HTTP status the service refused them with; undefined for a refusal of something else. */
function credentialsFix(error: PaymentApiError): string | undefined {
  if (error.httpStatus === 401) return KEY_FIX;
  if (error.httpStatus === 403) return ACCOUNT_FIX;
  return undefined;
}

/**
 * Asks the service for a transaction that cannot exist: an answer of "no such
 * transaction" (or any answer at all) proves the credentials without charging
 * anything; a 401 or 403 is a refusal of the credentials, logged at `error`
 * with its fix; no answer is a warning. Never rejects, and logs no key: the
 * client's messages are redacted and the fields here name only the service's
 * code, trace id, status and base URL.
 */
async function checkCredentials(client: PaymentClient, logger: Logger, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const where = { baseUrl: client.baseUrl, appId: client.appId, merchantId: client.merchantId };
  try {
    const transactionRequestId = `${CHECK_ID_PREFIX}${generateTransactionRequestId()}`;
    await client.getTransaction({ transactionRequestId }, { signal, timeoutMs, deadlineMs: timeoutMs, maxAttempts: 1 });
  } catch (error) {
    if (signal.aborted || error instanceof PaymentNotFoundError) return;
    const fix = error instanceof PaymentApiError && !(error instanceof PaymentRateLimitError) ? credentialsFix(error) : undefined;
    const fields = {
      ...where,
      ...(error instanceof PaymentError ? { code: error.code, message: error.message, traceId: error.traceId, httpStatus: error.httpStatus } : { err: error }),
      ...(error instanceof PaymentApiError ? { serviceCode: error.serviceCode } : {}),
    };
    if (fix !== undefined) {
      logger.error(
        { ...fields, fix },
        `paymount: the payment service refused these credentials at start-up (${(error as PaymentApiError).serviceCode}): every payment will fail until they are fixed`,
      );
      return;
    }
    logger.warn(
      {
        ...fields,
        fix:
          'check that `client.baseUrl` is the payment service (or the running sandbox) and that this server can reach it; ' +
          'if the service must not be called at start, set the payment routes option `checkCredentials: false`',
      },
      'paymount: the credentials could not be checked at start-up, the payment service gave no answer that says whether it accepts them; payments fail while it cannot be reached',
    );
  }
}

/** What the routes hold of their credentials check. */
export interface CredentialsCheck {
  /**
   * Starts a check left for the first request (an isolate runtime), and
   * resolves once it is done, never rejecting: that request waits for it, as
   * the runtime ends a request's work once it is answered. Undefined on every
   * other call, and wherever the check started by itself.
   */
  resume(): Promise<void> | undefined;
  /** Cancels the check, waiting or in flight: closed routes leave nothing pending. */
  cancel(): void;
}

const NO_CHECK: CredentialsCheck = { resume: () => undefined, cancel: () => {} };

/**
 * Checks the routes' credentials once, soon after the routes are made, so a
 * wrong key is in the log before the first shopper meets it. It never delays
 * or fails start-up: it runs after construction returns, on a timer that does
 * not keep the process alive, its one call bounded by CHECK_TIMEOUT_MS. On a
 * runtime that serves requests from isolates (workerd, the edge runtime),
 * work belongs to a request: workerd refuses to load a Worker whose global
 * scope sets a timer or even makes an AbortController, and ends a request's
 * work once it is answered, so there the check rides with the first request.
 * `fingerprint` is the key's, when the routes made their client from options;
 * a given client is known by itself.
 */
export function checkCredentialsSoon(client: PaymentClient, logger: Logger, fingerprint: string | undefined): CredentialsCheck {
  // A stand-in client (a test double) may not look transactions up: nothing to check with.
  if (typeof client.getTransaction !== 'function') return NO_CHECK;
  // Kept only while the check is in flight: on workerd an AbortController belongs to the request it was made in, and
  // aborting it from another (close() in a later request) throws.
  let controller: AbortController | undefined;
  const run = (timeoutMs: number): Promise<void> | undefined => {
    if (!firstCheckOf(client, fingerprint)) return undefined;
    const own = new AbortController();
    controller = own;
    return checkCredentials(client, logger, own.signal, timeoutMs).finally(() => {
      if (controller === own) controller = undefined;
    });
  };
  let riding = platform.isolatedMemory() !== undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (!riding) {
    timer = setTimeout(() => void run(CHECK_TIMEOUT_MS), 0);
    timer.unref?.();
  }
  return {
    resume() {
      if (!riding) return undefined;
      riding = false;
      return run(RIDING_CHECK_TIMEOUT_MS);
    },
    cancel() {
      riding = false;
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

/** The options as parsed: every default applied, the guard's and the webhook's included. */
type ParsedOptions = Omit<ResolvedOptions<ReturnType<typeof paymentRoutesOptionsSchema>>, 'orders' | 'webhook'> & {
  orders: ResolvedOrderOptions;
  webhook: ResolvedWebhookOptions;
};

/**
 * The options of `createPaymentRoutes` resolved once, as the schema parses them (every default applied), with
 * what is made of them: the client owned or given, the stores, one list of secrets, the logger.
 */
export type PaymentRoutesConfig = Omit<ParsedOptions, 'client' | 'logger' | 'clock' | 'allowedOrigins' | 'on' | 'store' | 'orders' | 'webhook'> & {
  client: PaymentClient;
  /** True when the routes created the client from options: then `close()` closes it. */
  ownsClient: boolean;
  /** The fingerprint of the options' API key (a given client's key is not known to the routes): the account checked once per process. */
  apiKeyFingerprint: string | undefined;
  /** The client's whole-call deadline: a given client's own, else its options' (or the default). */
  deadlineMs: number;
  allowedOrigins: ReadonlySet<string>;
  on: PaymentEventSubscriptions;
  /** Knows every secret of the options, so neither the log nor a span attribute ever holds one. */
  redactor: Redactor;
  logger: Logger;
  clock: { now(): number };
  /** How to fix a webhook delivery refused for its time, judged from the client's clock and the routes'. */
  clockFix: string;
  orders: ResolvedOrderOptions & { store: OrderAttemptStore };
  webhook: Omit<ResolvedWebhookOptions, 'secret' | 'secrets'> & { secrets: readonly string[]; store: IdempotencyStore };
};

/** What a refusal of the options names them as. */
const OPTIONS_SUBJECT = 'payment routes options';

function isPaymentClient(value: unknown): value is PaymentClient {
  const candidate = value as Partial<PaymentClient> | null | undefined;
  return typeof candidate?.createCheckoutSession === 'function' && typeof candidate.directPayment === 'function';
}

/** A lock shorter than two calls could free while its holder's call is in flight, and a second request would pay too. */
function checkLockTtl({ orders, deadlineMs }: PaymentRoutesConfig): void {
  if (orders.lockTtlMs >= 2 * deadlineMs) return;
  throw new PaymentValidationError(OPTIONS_SUBJECT, [
    {
      path: 'orders.lockTtlMs',
      rule: 'lock_outlives_calls',
      message: `must be at least twice the client's deadlineMs (${deadlineMs} ms): ${2 * deadlineMs} or more, or leave it unset (default ${lockTtlDefault(deadlineMs)})`,
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
 * and the event names in `on`, so a merchant fixes them in one round. Else
 * the routes' options as the schema parses them, every default applied.
 */
function parseOptions(
  options: PaymentRoutesOptions,
  clientOptions: PaymentClientOptions | undefined,
  context: SchemaContext & { deadlineMs: number },
  adapterOptions: AdapterOptionKinds | undefined,
): ParsedOptions {
  const schema = withAdapterOptions(paymentRoutesOptionsSchema(context), adapterOptions);
  const parsed = checkAgainst(schema, options);
  const on: unknown = options?.on;
  const issues = [
    ...(parsed.success ? [] : toValidationIssues(parsed.error.issues, options, schema)),
    ...(clientOptions !== null && typeof clientOptions === 'object' ? issuesOf(paymentClientOptionsSchema, clientOptions, 'client') : []),
    ...(on !== null && typeof on === 'object' ? Object.keys(on).filter((name) => !EVENT_NAMES.includes(name)).map((name) => unknownEventIssue(name, `on.${name}`)) : []),
  ];
  if (issues.length > 0 || !parsed.success) throw new PaymentValidationError(OPTIONS_SUBJECT, issues);
  // The schema's static type keeps `defaulted` options optional, as the merchant writes them; the parse filled them in.
  return parsed.data as ParsedOptions;
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
  // The client's deadline, known before the client is made: the order lock's default follows it.
  const deadlineMs = givenClient?.deadlineMs ?? clientOptions?.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const { client: _client, store, orders, webhook, logger, clock = Date, allowedOrigins, on, ...parsed } = parseOptions(
    options,
    clientOptions,
    { localDevelopment, deadlineMs },
    adapterOptions,
  );
  const { secret: _secret, secrets: _secrets, ...settings } = webhook;

  const secrets = secretsOf(options.webhook);
  const redactor = new Redactor();
  secrets.forEach((secret) => redactor.addSecret(secret));
  redactor.addSecret(clientOptions?.apiKey);
  redactor.addSecret(orders.requestIdKey);

  // The routes log each failure once, where it becomes the answer: their own client only speaks to a logger given on purpose.
  const client = givenClient ?? createPaymentClient({ logger: logger ?? false, telemetry: parsed.telemetry, ...(clientOptions as PaymentClientOptions) });
  const config: PaymentRoutesConfig = {
    ...parsed,
    client,
    ownsClient: givenClient === undefined,
    apiKeyFingerprint: clientOptions === undefined ? undefined : keyFingerprint(clientOptions.apiKey),
    deadlineMs,
    allowedOrigins: new Set(allowedOrigins),
    on: on ?? {},
    redactor,
    logger: createRedactingLogger(logger, redactor),
    clock,
    clockFix: clockFix(clientOptions?.clock, options.clock),
    orders: { ...orders, store: orders.store ?? new MemoryOrderAttemptStore({ clock }) },
    webhook: {
      ...settings,
      secrets,
      store: store ?? new MemoryIdempotencyStore(options.clock ? { clock: options.clock } : {}),
    },
  };
  checkLockTtl(config);
  return config;
}
