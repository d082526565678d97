/**
 * paymount's own error codes, each written once here. `PaymentError.code`
 * and the `code` of every route's error body are one of them; the service's
 * own codes (`S04`, `T01`...) are not: they travel in
 * `PaymentApiError.serviceCode`. The core README's "Error codes" table lists
 * every one (a test keeps the two in step).
 */

/** Why a webhook delivery was not trusted. Each is also an error code: `WEBHOOK_` and the reason in capitals. */
export const WEBHOOK_FAILURE_REASONS = [
  'missing_header',
  'bad_signature',
  'stale_timestamp',
  'future_timestamp',
  'bad_timestamp',
  'stale_event',
  'future_event',
  'bad_signed_time',
  'missing_signed_time',
  'body_already_parsed',
  'body_too_large',
  'invalid_payload',
  'invalid_secret',
] as const;

export type WebhookFailureReason = (typeof WEBHOOK_FAILURE_REASONS)[number];

/**
 * Every code paymount itself gives an error or a route's error body, by name:
 * compare against these instead of a string literal
 * (`error.code === PaymentErrorCode.ORDER_NOT_FOUND`). The core README's
 * "Error codes" table says when each is used.
 */
// Pure: a bundle that uses no code by name (a webhook-only Worker: its errors spell theirs) drops the table.
export const PaymentErrorCode = /* @__PURE__ */ Object.freeze({
  // The client
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  SERVICE_REFUSED: 'SERVICE_REFUSED',
  SERVICE_NOT_FOUND: 'SERVICE_NOT_FOUND',
  SERVICE_RATE_LIMITED: 'SERVICE_RATE_LIMITED',
  MALFORMED_RESPONSE: 'MALFORMED_RESPONSE',
  NETWORK_ERROR: 'NETWORK_ERROR',
  TLS_ERROR: 'TLS_ERROR',
  TIMEOUT: 'TIMEOUT',
  TRANSPORT_UNAVAILABLE: 'TRANSPORT_UNAVAILABLE',
  CLIENT_CLOSED: 'CLIENT_CLOSED',
  // The routes and the order guard
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  INVALID_JSON: 'INVALID_JSON',
  INVALID_BODY: 'INVALID_BODY',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  BODY_READ_TIMEOUT: 'BODY_READ_TIMEOUT',
  BODY_ALREADY_CONSUMED: 'BODY_ALREADY_CONSUMED',
  RAW_BODY_MISSING: 'RAW_BODY_MISSING',
  CROSS_SITE_FORM_POST: 'CROSS_SITE_FORM_POST',
  ORDER_NOT_FOUND: 'ORDER_NOT_FOUND',
  ORDER_NOT_PAYABLE: 'ORDER_NOT_PAYABLE',
  ORDER_ALREADY_PAID: 'ORDER_ALREADY_PAID',
  INVALID_ORDER: 'INVALID_ORDER',
  PAYMENT_IN_PROGRESS: 'PAYMENT_IN_PROGRESS',
  PAYMENT_PENDING: 'PAYMENT_PENDING',
  WALLET_NOT_CONFIGURED: 'WALLET_NOT_CONFIGURED',
  CHECKOUT_NOT_CANCELLED: 'CHECKOUT_NOT_CANCELLED',
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  WEBHOOK_IN_PROGRESS: 'WEBHOOK_IN_PROGRESS',
  WEBHOOK_HANDLER_FAILED: 'WEBHOOK_HANDLER_FAILED',
  UNSUPPORTED_PLATFORM: 'UNSUPPORTED_PLATFORM',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  // A webhook delivery not trusted: `WEBHOOK_` and its WebhookFailureReason in capitals
  WEBHOOK_MISSING_HEADER: 'WEBHOOK_MISSING_HEADER',
  WEBHOOK_BAD_SIGNATURE: 'WEBHOOK_BAD_SIGNATURE',
  WEBHOOK_STALE_TIMESTAMP: 'WEBHOOK_STALE_TIMESTAMP',
  WEBHOOK_FUTURE_TIMESTAMP: 'WEBHOOK_FUTURE_TIMESTAMP',
  WEBHOOK_BAD_TIMESTAMP: 'WEBHOOK_BAD_TIMESTAMP',
  WEBHOOK_STALE_EVENT: 'WEBHOOK_STALE_EVENT',
  WEBHOOK_FUTURE_EVENT: 'WEBHOOK_FUTURE_EVENT',
  WEBHOOK_BAD_SIGNED_TIME: 'WEBHOOK_BAD_SIGNED_TIME',
  WEBHOOK_MISSING_SIGNED_TIME: 'WEBHOOK_MISSING_SIGNED_TIME',
  WEBHOOK_BODY_ALREADY_PARSED: 'WEBHOOK_BODY_ALREADY_PARSED',
  WEBHOOK_BODY_TOO_LARGE: 'WEBHOOK_BODY_TOO_LARGE',
  WEBHOOK_INVALID_PAYLOAD: 'WEBHOOK_INVALID_PAYLOAD',
  WEBHOOK_INVALID_SECRET: 'WEBHOOK_INVALID_SECRET',
} as const);

/** One of paymount's own error codes. */
export type PaymentErrorCode = (typeof PaymentErrorCode)[keyof typeof PaymentErrorCode];

/** The code of a webhook failure reason. */
export type WebhookFailureCode<R extends WebhookFailureReason = WebhookFailureReason> = (typeof PaymentErrorCode)[`WEBHOOK_${Uppercase<R>}`];

/**
 * `missing_header` → `WEBHOOK_MISSING_HEADER`; a reason without its code does not compile. Spelt
 * rather than looked up, so the webhook entry does not carry the whole table (each code's value is its name).
 */
export function webhookFailureCode<R extends WebhookFailureReason>(reason: R): WebhookFailureCode<R> {
  return `WEBHOOK_${reason.toUpperCase()}` as WebhookFailureCode<R>;
}

/*
 * The service's own envelope codes paymount acts on (docs/service-contract.md#response-envelope).
 * Apart from the envelope's schema: the error classes need one, and must not load zod to get it.
 */

export const SUCCESS_CODE = '0';
export const RATE_LIMIT_CODE = 'S04';

/**
 * Refusals meaning "no such transaction" (`T01`: a query, or the original of a
 * refund) and "no such checkout session" (`H01`: expire-session). The vendor
 * publishes no codes for these; these are the sandbox's.
 */
export const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['T01', 'H01']);

/** What a PaymentError carries beside its message. */
export interface PaymentErrorOptions {
  /** Each subclass has its own default; PaymentError itself needs one. */
  code?: PaymentErrorCode;
  traceId?: string | undefined;
  httpStatus?: number | undefined;
  cause?: unknown;
}

/**
 * The error hierarchy. Every error paymount throws is a PaymentError carrying
 * one of paymount's own codes (`PaymentErrorCode`), and, when the service
 * answered, its `traceId` and HTTP status, so a merchant can branch on type or
 * code and quote the traceId to support. No message ever contains the API key
 * or a wallet token.
 */
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

/** What a PaymentApiError carries: the service's envelope beside paymount's own fields. */
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
