import { PaymentErrorCode, webhookFailureCode, type WebhookFailureReason } from './error-codes';
import { RATE_LIMIT_CODE } from './service-codes';

export { PaymentErrorCode, WEBHOOK_FAILURE_REASONS, type WebhookFailureCode, type WebhookFailureReason } from './error-codes';

/**
 * The error hierarchy. Every error paymount throws is a PaymentError carrying
 * one of paymount's own codes (`PaymentErrorCode`), and, when the service
 * answered, its `traceId` and HTTP status, so a merchant can branch on type or
 * code and quote the traceId to support. No message ever contains the API key
 * or a wallet token.
 */
export interface PaymentErrorOptions {
  /** Each subclass has its own default; PaymentError itself needs one. */
  code?: PaymentErrorCode;
  traceId?: string | undefined;
  httpStatus?: number | undefined;
  cause?: unknown;
}

export class PaymentError extends Error {
  override name = 'PaymentError';
  readonly code: PaymentErrorCode;
  readonly traceId: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(message: string, options: PaymentErrorOptions & { code: PaymentErrorCode }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.traceId = options.traceId;
    this.httpStatus = options.httpStatus;
  }
}

/** One broken rule: where (`path`, dotted) and which rule, in words a developer can act on. */
export interface ValidationIssue {
  path: string;
  rule: string;
  message: string;
}

/** Input broke a rule of the service contract (docs/service-contract.md#fields-and-rules); nothing was sent. */
export class PaymentValidationError extends PaymentError {
  override name = 'PaymentValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(subject: string, issues: readonly ValidationIssue[]) {
    // Each message follows its field's name: `description is required: a string of at most 128 characters`.
    const list = issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join('; ');
    super(`Invalid ${subject}: ${list}`, { code: PaymentErrorCode.VALIDATION_ERROR });
    this.issues = issues;
  }
}

export interface PaymentApiErrorOptions extends PaymentErrorOptions {
  /** The envelope's `code`: the service's own, e.g. `S04` or `T01`. */
  serviceCode: string;
  msg?: string | undefined;
  data?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The service answered with an envelope whose `code` is not "0"
 * (docs/service-contract.md#response-envelope). `code` is paymount's
 * (`SERVICE_REFUSED` here); the service's own is `serviceCode`.
 */
export class PaymentApiError extends PaymentError {
  override name = 'PaymentApiError';
  /** The envelope's `code`, e.g. `S04`, `T06`: what to quote to the service's support with the traceId. */
  readonly serviceCode: string;
  /** The service's own `msg`, with any secret cut out. */
  readonly msg: string | undefined;
  /**
   * The envelope's `data`, when the refusal carried one (e.g. the broken rules), with
   * every secret, wallet token and credential-like field replaced by `[REDACTED]`.
   */
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(message: string, options: PaymentApiErrorOptions) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.SERVICE_REFUSED });
    this.serviceCode = options.serviceCode;
    this.msg = options.msg;
    this.data = options.data;
  }
}

/**
 * The service knows no transaction or checkout session by the id sent (a
 * query, the original of a refund, a session to expire): a definitive answer,
 * neither a crash nor a failed payment. `serviceCode` is the service's own.
 */
export class PaymentNotFoundError extends PaymentApiError {
  override name = 'PaymentNotFoundError';

  constructor(message: string, options: PaymentApiErrorOptions) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.SERVICE_NOT_FOUND });
  }
}

/** Service code S04: the call-frequency limit was exceeded (after any retries). */
export class PaymentRateLimitError extends PaymentApiError {
  override name = 'PaymentRateLimitError';
  /** How long the service asked us to wait, when it said (Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: Omit<PaymentApiErrorOptions, 'serviceCode'> & { serviceCode?: string; retryAfterMs?: number | undefined }) {
    super(message, {
      ...options,
      serviceCode: options.serviceCode ?? RATE_LIMIT_CODE,
      code: options.code ?? PaymentErrorCode.SERVICE_RATE_LIMITED,
    });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The service answered, but not with a valid JSON envelope (a proxy error page, a truncated body). */
export class PaymentResponseError extends PaymentError {
  override name = 'PaymentResponseError';

  constructor(message: string, options: PaymentErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.MALFORMED_RESPONSE });
  }
}

/** No answer could be had: DNS, refused or reset connection, TLS failure. */
export class PaymentNetworkError extends PaymentError {
  override name = 'PaymentNetworkError';
  /** True when the request may have reached the service (reset after sending), so its effect is unknown. */
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: PaymentErrorOptions & { outcomeUnknown?: boolean } = {}) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.NETWORK_ERROR });
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

/**
 * No answer in time. The request may have been processed: the outcome is
 * unknown and the webhook (or a retry with the same transactionRequestId)
 * settles it. Never treat this as a failed payment.
 */
export class PaymentTimeoutError extends PaymentError {
  override name = 'PaymentTimeoutError';
  readonly outcomeUnknown = true as const;

  constructor(message: string, options: PaymentErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.TIMEOUT });
  }
}

/**
 * A store (the webhook idempotency store, the order attempt store, e.g.
 * Redis) could not be used. Nothing was processed without it: the route
 * answers 503, and the service retries a webhook delivery later.
 */
export class PaymentStoreUnavailableError extends PaymentError {
  override name = 'PaymentStoreUnavailableError';

  constructor(message: string, options: PaymentErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? PaymentErrorCode.STORE_UNAVAILABLE, httpStatus: 503 });
  }

  /** Any failure of `store` as this error; the store's own words (refused, timed out) say what broke. */
  static from(error: unknown, store: string): PaymentStoreUnavailableError {
    if (error instanceof PaymentStoreUnavailableError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new PaymentStoreUnavailableError(`The ${store} could not be used: ${reason}`, { cause: error });
  }
}

/** A webhook delivery could not be trusted; no handler ran. */
export class WebhookVerificationError extends PaymentError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookFailureReason;

  constructor(reason: WebhookFailureReason, message: string) {
    super(message, { code: webhookFailureCode(reason), httpStatus: 400 });
    this.reason = reason;
  }
}

/**
 * A verified webhook body paymount cannot make an event of: a field of the
 * wrong type, or a field its event always has missing (`issues` names each,
 * with its rule). Answered 400 `WEBHOOK_INVALID_PAYLOAD`; no handler ran.
 */
export class WebhookPayloadError extends WebhookVerificationError {
  override name = 'WebhookPayloadError';
  readonly issues: readonly ValidationIssue[];

  constructor(expected: string, issues: readonly ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(root)'} ${i.message}`).join('; ');
    super('invalid_payload', `The webhook payload is not ${expected} (${list}); no handler ran.`);
    this.issues = issues;
  }
}
