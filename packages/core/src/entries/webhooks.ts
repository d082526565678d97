// `@paymount/core/webhooks`: what a Worker (or any server) needs to verify a delivery and read its
// event, and nothing else: no client, no undici, no routes, no zod classic. A Worker that only
// verifies webhooks bundles to under 8 KB gzipped, no zod in it (held there by tests/runtimes' bundle-size test).
// The same classes and functions as the root's, which re-exports this whole list: an error from
// here is `instanceof` the root's. Listed by name; the report of this entry is api/core.webhooks.md.
export { verifyWebhook } from '../webhooks/verify-webhook';
export type { VerifyWebhookOptions, WebhookSecrets } from '../webhooks/verify-webhook';
export { signWebhook, signWebhookAsync } from '../webhooks/signature';
export type { SignedWebhook, SignWebhookOptions } from '../webhooks/signature';
export type { HeaderSource } from '../webhooks/event';
export { dedupeKeyOf } from '../webhook-dedupe/handle-event-once';
export { PAYMENT_EVENT_TYPES } from '../webhooks/event';
export type {
  PaymentClosedEvent,
  PaymentEvent,
  PaymentEventAmount,
  PaymentEventAttempt,
  PaymentEventMap,
  PaymentEventReason,
  PaymentEventType,
  PaymentFailedEvent,
  PaymentSucceededEvent,
  RefundFailedEvent,
  RefundSucceededEvent,
  UnknownPaymentEvent,
} from '../webhooks/event';
export { PaymentError, WebhookPayloadError, WebhookVerificationError } from '../shared/errors';
export type { ValidationIssue, WebhookFailureReason } from '../shared/errors';
export type { WebhookFailureCode } from '../shared/errors';
