// `createPaymentClient`: each request validated, then sent to the service as one call with its retries (ids,
// endpoint paths, auth headers, backoff, one attempt).
import { AttemptTimeoutError, classifyNetworkError, CLIENT_REQUEST_ID_HEADER, type HttpMethod, type Transport, type TransportResponse } from '../platform/contract';
import { platform } from '../platform/current';
import type { Clock, PaymentClientOptions, Sleep } from '../schemas/client-option-types';
import { paymentClientOptionsSchema } from '../schemas/client-options';
import { createCheckoutSessionRequestSchema, createDirectPaymentRequestSchema, createRefundRequestSchema, expireCheckoutSessionRequestSchema, terminalSaleRequestSchema, transactionQuerySchema } from '../schemas/requests';
import { PaymentApiError, PaymentError, PaymentErrorCode, PaymentRateLimitError, PaymentTimeoutError, PaymentValidationError } from '../shared/errors';
import { createRedactingLogger, type Logger, REDACTED, silentLogger } from '../shared/logger';
import { validate } from '../shared/validation';
import { type CallObserver, type CallTelemetry, createCallTelemetry, UNOBSERVED } from '../telemetry/call-spans';
import { type CallOutcome, type Interpretation, interpretResponse, toCheckoutSession, toExpiredCheckoutSession, toPaymentResult, toRefundResult, toTransactionDetails } from './response';
import type { CallOptions, PaymentClient } from './types';

// globalThis.crypto: Web Crypto's randomUUID, on Node 20 and every runtime core runs on.

/** A transactionRequestId: 32 hex characters, the longest create-session takes (docs/service-contract.md#limits), matching `^[A-Za-z0-9_\-]+$`. */
export function generateTransactionRequestId(): string {
  // The UUID's five groups joined: a quarter cheaper than replacing the dashes with a pattern, on every call.
  const uuid = crypto.randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);
}

/** An X-Client-Request-Id: a UUID (36 characters, within the 64 allowed), fresh for every attempt. */
export function generateClientRequestId(): string {
  return crypto.randomUUID();
}

/** Endpoint paths, relative to the base URL (API version v1). */
export const CREATE_SESSION_PATH = '/v1/checkout/create-session';
export const DIRECT_SALE_PATH = '/v1/checkout/sale';
export const TERMINAL_SALE_PATH = '/v1/semi-integration/transaction/sale';
export const REFUND_PATH = '/v1/checkout/refund';
export const TRANSACTION_QUERY_PATH = '/v1/transaction/query';
export const EXPIRE_SESSION_PATH = '/v1/checkout/expire-session';

/**
 * The four headers of docs/service-contract.md#authentication, in their exact
 * form. Built per attempt: a repeated X-Client-Request-Id within 10 minutes is
 * a duplicate, and the timestamp must be fresh (±10 minutes). A GET has no
 * body, so it goes without Content-Type (as the vendor's SDK sends it).
 */
export function buildAuthHeaders(apiKey: string, nowMs: number, method: HttpMethod = 'POST'): Record<string, string> {
  if (method === 'GET') {
    return {
      Authorization: `Bearer ${apiKey}`,
      'X-Client-Request-Id': generateClientRequestId(),
      'X-Timestamp': formatTimestamp(nowMs),
    };
  }
  return {
    Authorization: `Bearer ${apiKey}`,
    'Content-Type': 'application/json',
    [CLIENT_REQUEST_ID_HEADER]: generateClientRequestId(),
    'X-Timestamp': formatTimestamp(nowMs),
  };
}

/** Unix time in milliseconds, 13 digits (a 10-digit seconds value is invalid). */
export function formatTimestamp(nowMs: number): string {
  const text = String(Math.trunc(nowMs));
  if (!/^[0-9]{13}$/.test(text)) {
    throw new RangeError('the client clock must return Unix time in milliseconds (13 digits)');
  }
  return text;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Exponential backoff with full jitter (a random wait between 0 and the
 * exponential cap), so clients rate-limited together do not retry together.
 * `attempt` is the number of the attempt that just failed, from 1.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * cap);
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface CallContext {
  transport: Transport;
  apiKey: string;
  clock: Clock;
  sleep: Sleep;
  logger: Logger;
  /** False when the logger is silent: each attempt's debug fields and timing are then not even built. */
  logsAttempts: boolean;
  retry: RetryPolicy;
  redact: (text: string) => string;
  /** Undefined when telemetry is off or `@opentelemetry/api` is not installed. */
  telemetry: CallTelemetry | undefined;
}

export interface CallSpec {
  /** GET only for reads: they have no body, and no attempt of one can have changed anything at the service. */
  method: HttpMethod;
  /** Relative to the base URL; a GET carries its parameters here as a query string. */
  path: string;
  /** Serialised as JSON; undefined for a GET. */
  body?: unknown;
  /** The call's idempotency key, when it has one (a session expiry and a read have none). */
  transactionRequestId?: string | undefined;
  timeoutMs: number;
  deadlineMs: number;
  /** Fewer attempts than the client's retry policy allows, for this call only. */
  maxAttempts?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Values of this call (a wallet token) to cut out of any text quoted from the service. */
  secrets?: readonly string[];
}

type AttemptResult = Interpretation & { status?: number };

/**
 * One logical call: the body is serialised once and the same
 * transactionRequestId goes out on every attempt, so the service answers a
 * repeat with the first result. API refusals end the call at once; after an
 * attempt that may have been processed, though, the outcome is unknown. A read
 * is retried on the same transient failures and ends in an error, never in an
 * unknown outcome: it changed nothing, so the caller can just ask again.
 */
export function performCall(ctx: CallContext, spec: CallSpec): Promise<CallOutcome> {
  if (ctx.telemetry === undefined) return callWithRetries(ctx, spec, UNOBSERVED);
  return ctx.telemetry.traceCall(spec, (observer) => callWithRetries(ctx, spec, observer));
}

async function callWithRetries(ctx: CallContext, spec: CallSpec, observer: CallObserver): Promise<CallOutcome> {
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const writes = spec.method !== 'GET';
  const redact = withCallSecrets(ctx.redact, spec.secrets ?? []);
  const deadlineAt = ctx.clock.now() + spec.deadlineMs;
  /** The error of the latest attempt the service may have processed without a usable answer coming back. */
  let doubt: PaymentError | undefined;
  let last: Extract<AttemptResult, { ok: false }> | undefined;
  const maxAttempts = Math.min(ctx.retry.maxAttempts, spec.maxAttempts ?? ctx.retry.maxAttempts);

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const remaining = deadlineAt - ctx.clock.now();
    if (remaining <= 0) break;
    const started = ctx.logsAttempts ? performance.now() : 0;
    const result = await observer.attempt(attempt, () => sendOnce(ctx, spec, body, Math.min(spec.timeoutMs, remaining), redact));
    if (ctx.logsAttempts) logAttempt(ctx, spec, attempt, result, started);
    if (result.ok) {
      return { kind: 'answered', envelope: result.envelope, httpStatus: result.status ?? 0, receivedAt: ctx.clock.now() };
    }
    last = result;
    if (writes && result.maybeProcessed) doubt = result.error;
    if (!result.retryable || attempt === maxAttempts) break;
    const delayMs = result.retryAfterMs ?? backoffDelay(ctx.retry, attempt);
    if (ctx.clock.now() + delayMs >= deadlineAt) break;
    ctx.logger.warn({ path: spec.path, attempt, delayMs, reason: result.error.code }, 'retrying payment service call');
    observer.retry(result.error.code);
    await ctx.sleep(delayMs, spec.signal);
  }

  const error = last?.error ?? new PaymentTimeoutError(`The deadline of ${spec.method} ${spec.path} passed before any attempt`);
  if (doubt !== undefined) return unknownOutcome(ctx, spec, doubt, error);
  // Debug only: the error is thrown, and whoever catches it (a route, the merchant's code) reports it once.
  ctx.logger.debug({ path: spec.path, transactionRequestId: spec.transactionRequestId, ...codesOf(error), traceId: error.traceId }, 'payment service call gave up');
  throw error;
}

/**
 * An attempt may have been processed, and no later one settled it. Even a
 * refusal of a later attempt is no proof of failure (the first may have been
 * charged while the repeat was refused), so the outcome is unknown and the
 * error reported is the one of the attempt in doubt; the refusal is logged.
 */
function unknownOutcome(ctx: CallContext, spec: CallSpec, doubt: PaymentError, last: PaymentError): CallOutcome {
  const refused = last instanceof PaymentApiError && !(last instanceof PaymentRateLimitError);
  const error = refused ? doubt : last;
  ctx.logger.warn(
    {
      path: spec.path,
      transactionRequestId: spec.transactionRequestId,
      errorCode: error.code,
      ...(refused ? { laterRefusal: last.serviceCode, traceId: last.traceId } : {}),
    },
    'payment service call outcome unknown',
  );
  return { kind: 'unknown', error };
}

function logAttempt(ctx: CallContext, spec: CallSpec, attempt: number, result: AttemptResult, started: number): void {
  const fields = {
    method: spec.method,
    path: spec.path,
    attempt,
    transactionRequestId: spec.transactionRequestId,
    status: result.status,
    durationMs: Math.round(performance.now() - started),
  };
  if (result.ok) ctx.logger.debug({ ...fields, traceId: result.envelope.traceId }, 'payment service call answered');
  else ctx.logger.debug({ ...fields, traceId: result.error.traceId, ...codesOf(result.error) }, 'payment service call failed');
}

/** paymount's code of a failure and, for a refusal, the service's own beside it. */
function codesOf(error: PaymentError): { errorCode: PaymentError['code']; serviceCode?: string } {
  return { errorCode: error.code, ...(error instanceof PaymentApiError ? { serviceCode: error.serviceCode } : {}) };
}

async function sendOnce(
  ctx: CallContext,
  spec: CallSpec,
  body: string | undefined,
  timeoutMs: number,
  redact: (text: string) => string,
): Promise<AttemptResult> {
  const headers = buildAuthHeaders(ctx.apiKey, ctx.clock.now(), spec.method);
  let sent: Promise<TransportResponse>;
  try {
    sent = ctx.transport.send(spec.method, spec.path, headers, body, { timeoutMs, signal: spec.signal });
  } catch (cause) {
    // send() threw instead of returning its promise: the runtime refused the request before any of it went out.
    const { error } = classifyNetworkError(cause, spec.method, spec.path, true);
    return { ok: false, error, retryable: false, maybeProcessed: false };
  }
  try {
    const response = await sent;
    // Set, not spread into a copy with the key added: the copy cost a createCheckoutSession call about
    // 9,200 more instructions (7%) and a getTransaction 11,600 (12%), counted by callgrind with an
    // in-process transport (bench: client-vs-undici).
    const result: AttemptResult = interpretResponse(spec.method, spec.path, response, ctx.clock.now(), redact);
    result.status = response.status;
    return result;
  } catch (cause) {
    if (spec.signal?.aborted) throw spec.signal.reason;
    if (cause instanceof AttemptTimeoutError) {
      return {
        ok: false,
        error: new PaymentTimeoutError(
          `No answer to ${spec.method} ${spec.path} within ${timeoutMs} ms${spec.method === 'GET' ? '' : '; the outcome is unknown'}`,
          { cause },
        ),
        retryable: true,
        maybeProcessed: true,
      };
    }
    if (cause instanceof PaymentError) return { ok: false, error: cause, retryable: false, maybeProcessed: true };
    const { error, retryable } = classifyNetworkError(cause, spec.method, spec.path);
    return { ok: false, error, retryable, maybeProcessed: error.outcomeUnknown };
  }
}

/**
 * Cuts this call's secrets out of text quoted from the service, both as sent
 * and as they read inside a JSON string (how a body echoed back carries them).
 */
function withCallSecrets(redact: (text: string) => string, secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return redact;
  const forms = secrets
    .filter((secret) => secret.length > 0)
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
    // Longest first, so an escaped form is not half-cut by a shorter one.
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((out, secret) => out.split(secret).join(REDACTED), redact(text));
}

const QUERY_PARAMS = ['appId', 'merchantId', 'transactionId', 'transactionRequestId'] as const;

/**
 * Builds a client for the payment service. Options are validated up front;
 * every request body is validated before anything is sent, so an invalid call
 * throws PaymentValidationError listing every broken rule and sends nothing.
 */
export function createPaymentClient(options: PaymentClientOptions): PaymentClient {
  const config = validate(paymentClientOptionsSchema, options, 'payment client options');
  const logger = createRedactingLogger(config.logger);
  logger.redactor.addSecret(config.apiKey);
  // A transport of the caller's stays the caller's to close, as a dispatcher of theirs does.
  const transport = config.transport ?? platform.createTransport({ baseUrl: config.baseUrl, dispatcher: config.dispatcher, ca: config.ca });
  const ownsTransport = config.transport === undefined;
  const redact = (text: string) => logger.redactor.redactString(text);
  const context: CallContext = {
    transport,
    apiKey: config.apiKey,
    clock: config.clock ?? Date,
    sleep: config.sleep ?? realSleep,
    logger,
    // Each attempt's debug line is for a logger given on purpose; the console default keeps warnings and errors only.
    logsAttempts: config.logger !== undefined && config.logger !== false && config.logger !== silentLogger,
    retry: config.retry,
    redact,
    telemetry: createCallTelemetry(config.telemetry, config.baseUrl, redact, logger),
  };
  const schemaContext = { localDevelopment: config.localDevelopment };
  const checkoutSchema = createCheckoutSessionRequestSchema(schemaContext);
  const directPaymentSchema = createDirectPaymentRequestSchema(schemaContext);
  const refundSchema = createRefundRequestSchema(schemaContext);
  const generateId = config.generateId ?? generateTransactionRequestId;
  let closed = false;

  /** Fills appId/merchantId from the options and a transactionRequestId that all attempts will share. */
  const withDefaults = <T extends object>(input: T) => {
    // The caller's fields are spread over a literal that already has the three keys, so no key is added
    // after the spread: a body built as `{ ...input, appId: ... }` cost a createCheckoutSession call about
    // 36,000 more instructions (138,000 against 102,000; refund 33,000, getTransaction 17,000 through
    // withAccount), counted by callgrind with an in-process transport (bench: client-vs-undici).
    const body: T & Record<'appId' | 'merchantId' | 'transactionRequestId', unknown> = {
      appId: undefined,
      merchantId: undefined,
      transactionRequestId: undefined,
      ...input,
    };
    body.appId ??= config.appId;
    body.merchantId ??= config.merchantId;
    body.transactionRequestId ??= generateId();
    return body;
  };

  /** appId/merchantId from the options, for the calls that carry no transactionRequestId of their own. */
  const withAccount = <T extends { appId?: string | undefined; merchantId?: string | undefined }>(input: T) => {
    // Keys before the spread, as in withDefaults.
    const body: T & Record<'appId' | 'merchantId', unknown> = { appId: undefined, merchantId: undefined, ...input };
    body.appId ??= config.appId;
    body.merchantId ??= config.merchantId;
    return body;
  };

  const limits = (callOptions: CallOptions, timeoutMs = config.timeoutMs, deadlineMs = config.deadlineMs) => {
    if (closed) throw new PaymentError('The payment client is closed', { code: PaymentErrorCode.CLIENT_CLOSED });
    const { maxAttempts } = callOptions;
    if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1)) {
      throw new PaymentValidationError('call options', [{ path: 'maxAttempts', rule: 'min', message: 'must be a whole number of at least 1' }]);
    }
    return {
      timeoutMs: callOptions.timeoutMs ?? timeoutMs,
      deadlineMs: callOptions.deadlineMs ?? deadlineMs,
      maxAttempts,
      signal: callOptions.signal,
    };
  };

  /** A POST whose body carries its transactionRequestId: the same one goes out on every attempt. */
  const write = (
    path: string,
    body: { transactionRequestId: string },
    callLimits: ReturnType<typeof limits>,
    secrets?: readonly string[],
  ) => performCall(context, { method: 'POST', path, body, transactionRequestId: body.transactionRequestId, secrets, ...callLimits });

  return {
    appId: config.appId,
    merchantId: config.merchantId,
    baseUrl: config.baseUrl,
    deadlineMs: config.deadlineMs,

    async createCheckoutSession(input, callOptions = {}) {
      const body = validate(checkoutSchema, withDefaults(input), 'checkout session request');
      const outcome = await write(CREATE_SESSION_PATH, body, limits(callOptions));
      // A session whose creation is in doubt is useless: no checkoutUrl came back, so the caller must try again.
      if (outcome.kind === 'unknown') throw outcome.error;
      return toCheckoutSession(outcome, CREATE_SESSION_PATH, body.transactionRequestId, schemaContext);
    },

    async directPayment(input, callOptions = {}) {
      const body = validate(directPaymentSchema, { ...withDefaults(input), paymentMethod: 'WALLET_PAY' }, 'direct payment request');
      const outcome = await write(DIRECT_SALE_PATH, body, limits(callOptions), [body.cardEncryptedData]);
      return toPaymentResult(outcome, DIRECT_SALE_PATH, body.transactionRequestId);
    },

    async terminalSale(input, callOptions = {}) {
      const body = validate(terminalSaleRequestSchema, withDefaults(input), 'terminal sale request');
      const callLimits = limits(callOptions, config.terminalTimeoutMs, Math.max(config.deadlineMs, config.terminalTimeoutMs));
      const outcome = await write(TERMINAL_SALE_PATH, body, callLimits);
      return toPaymentResult(outcome, TERMINAL_SALE_PATH, body.transactionRequestId);
    },

    async refund(input, callOptions = {}) {
      const body = validate(refundSchema, withDefaults(input), 'refund request');
      const outcome = await write(REFUND_PATH, body, limits(callOptions));
      return toRefundResult(outcome, REFUND_PATH, body.transactionRequestId);
    },

    async getTransaction(lookup, callOptions = {}) {
      const query = validate(transactionQuerySchema, withAccount(lookup), 'transaction query');
      const params = new URLSearchParams();
      // In a fixed order, whatever the order of the caller's fields: the path is logged and traced.
      for (const name of QUERY_PARAMS) if (query[name] !== undefined) params.append(name, query[name]);
      const path = `${TRANSACTION_QUERY_PATH}?${params.toString()}`;
      const outcome = await performCall(context, { method: 'GET', path, ...limits(callOptions) });
      // A read never leaves its outcome in doubt; this only narrows the type.
      if (outcome.kind === 'unknown') throw outcome.error;
      return toTransactionDetails(outcome, path);
    },

    async expireCheckoutSession(input, callOptions = {}) {
      const body = validate(expireCheckoutSessionRequestSchema, withAccount(input), 'expire checkout session request');
      const outcome = await performCall(context, { method: 'POST', path: EXPIRE_SESSION_PATH, body, ...limits(callOptions) });
      // Expiring is idempotent (an expired session answers its state again): the caller can simply call again.
      if (outcome.kind === 'unknown') throw outcome.error;
      return toExpiredCheckoutSession(outcome, EXPIRE_SESSION_PATH);
    },

    async close() {
      if (closed) return;
      closed = true;
      if (ownsTransport) await transport.close();
    },
  };
}
