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
