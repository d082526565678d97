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

const OWN_CODES = [
  // The client
  'VALIDATION_ERROR',
  'SERVICE_REFUSED',
  'SERVICE_NOT_FOUND',
  'SERVICE_RATE_LIMITED',
  'MALFORMED_RESPONSE',
  'NETWORK_ERROR',
  'TLS_ERROR',
  'TIMEOUT',
  'CLIENT_CLOSED',
  // The routes and the order guard
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'INVALID_JSON',
  'INVALID_BODY',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'BODY_ALREADY_CONSUMED',
  'RAW_BODY_MISSING',
  'CROSS_SITE_FORM_POST',
  'ORDER_NOT_FOUND',
  'ORDER_NOT_PAYABLE',
  'ORDER_ALREADY_PAID',
  'INVALID_ORDER',
  'PAYMENT_IN_PROGRESS',
  'PAYMENT_PENDING',
  'WALLET_NOT_CONFIGURED',
  'CHECKOUT_NOT_CANCELLED',
  'STORE_UNAVAILABLE',
  'WEBHOOK_IN_PROGRESS',
  'WEBHOOK_HANDLER_FAILED',
  'UNSUPPORTED_PLATFORM',
  'INTERNAL_ERROR',
] as const;

/** The code of a webhook failure reason. */
export type WebhookFailureCode<R extends WebhookFailureReason = WebhookFailureReason> = `WEBHOOK_${Uppercase<R>}`;

/** Every code paymount itself gives an error or a route's error body. */
export type PaymentErrorCode = (typeof OWN_CODES)[number] | WebhookFailureCode;

export function webhookFailureCode<R extends WebhookFailureReason>(reason: R): WebhookFailureCode<R> {
  return `WEBHOOK_${reason.toUpperCase()}` as WebhookFailureCode<R>;
}

const ALL_CODES: readonly PaymentErrorCode[] = [...OWN_CODES, ...WEBHOOK_FAILURE_REASONS.map(webhookFailureCode)];

/** Every code by name, to compare against instead of a string literal: `error.code === PaymentErrorCode.ORDER_NOT_FOUND`. */
export const PaymentErrorCode: { readonly [C in PaymentErrorCode]: C } = Object.freeze(
  Object.fromEntries(ALL_CODES.map((code) => [code, code])) as { [C in PaymentErrorCode]: C },
);
