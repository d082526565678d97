/**
 * The error hierarchy. Every error paymount throws is a PaymentError carrying a
 * stable `code`, and, when the service answered, its `traceId` and HTTP status,
 * so a merchant can branch on type or code and quote the traceId to support.
 * No message ever contains the API key or a wallet token.
 */
export interface PaymentErrorOptions {
  code?: string;
  traceId?: string | undefined;
  httpStatus?: number | undefined;
  cause?: unknown;
}

export class PaymentError extends Error {
  override name = 'PaymentError';
  readonly code: string;
  readonly traceId: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(message: string, options: PaymentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? 'PAYMENT_ERROR';
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

/** Input broke a rule of the spec; nothing was sent. */
export class PaymentValidationError extends PaymentError {
  override name = 'PaymentValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(subject: string, issues: readonly ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
    super(`Invalid ${subject}: ${list}`, { code: 'VALIDATION_ERROR' });
    this.issues = issues;
  }
}

/** The service answered with an envelope whose `code` is not "0". */
export class PaymentApiError extends PaymentError {
  override name = 'PaymentApiError';
  /** The service's own `msg`, verbatim. */
  readonly msg: string | undefined;

  constructor(message: string, options: PaymentErrorOptions & { msg?: string | undefined }) {
    super(message, options);
    this.msg = options.msg;
  }
}

/**
 * The service knows no transaction or checkout session by the id sent (a
 * query, the original of a refund, a session to expire): a definitive answer,
 * neither a crash nor a failed payment. `code` is the service's own.
 */
export class PaymentNotFoundError extends PaymentApiError {
  override name = 'PaymentNotFoundError';
}

/** Code S04: the call-frequency limit was exceeded (after any retries). */
export class PaymentRateLimitError extends PaymentApiError {
  override name = 'PaymentRateLimitError';
  /** How long the service asked us to wait, when it said (Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: PaymentErrorOptions & { msg?: string | undefined; retryAfterMs?: number | undefined }) {
    super(message, { ...options, code: options.code ?? 'S04' });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The service answered, but not with a valid JSON envelope (a proxy error page, a truncated body). */
export class PaymentResponseError extends PaymentError {
  override name = 'PaymentResponseError';
}

/** No answer could be had: DNS, refused or reset connection, TLS failure. */
export class PaymentNetworkError extends PaymentError {
  override name = 'PaymentNetworkError';
  /** True when the request may have reached the service (reset after sending), so its effect is unknown. */
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: PaymentErrorOptions & { outcomeUnknown?: boolean } = {}) {
    super(message, { ...options, code: options.code ?? 'NETWORK_ERROR' });
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
    super(message, { ...options, code: options.code ?? 'TIMEOUT' });
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
    super(message, { ...options, code: options.code ?? 'STORE_UNAVAILABLE', httpStatus: 503 });
  }

  /** Any failure of `store` as this error; the store's own words (refused, timed out) say what broke. */
  static from(error: unknown, store: string): PaymentStoreUnavailableError {
    if (error instanceof PaymentStoreUnavailableError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new PaymentStoreUnavailableError(`The ${store} could not be used: ${reason}`, { cause: error });
  }
}

export type WebhookFailureReason =
  | 'missing_header'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'bad_timestamp'
  | 'stale_event'
  | 'future_event'
  | 'bad_signed_time'
  | 'missing_signed_time'
  | 'body_already_parsed'
  | 'body_too_large'
  | 'invalid_payload'
  | 'invalid_secret';

/** A webhook delivery could not be trusted; no handler ran. */
export class WebhookVerificationError extends PaymentError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookFailureReason;

  constructor(reason: WebhookFailureReason, message: string) {
    super(message, { code: `WEBHOOK_${reason.toUpperCase()}`, httpStatus: 400 });
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
