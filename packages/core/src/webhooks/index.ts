export { PAYMENT_EVENT_TYPES, eventTypeOf, normalizeEvent } from './event';
export type {
  EventOrigin,
  PaymentClosedEvent,
  PaymentEvent,
  PaymentEventAmount,
  PaymentEventMap,
  PaymentEventReason,
  PaymentEventType,
  PaymentFailedEvent,
  PaymentSucceededEvent,
  RefundFailedEvent,
  RefundSucceededEvent,
  UnknownPaymentEvent,
} from './event';
export type { HeaderSource } from './headers';
export { signWebhook } from './sign-webhook';
export type { SignedWebhook, SignWebhookOptions } from './sign-webhook';
export {
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  verifyWebhook,
} from './verify-webhook';
export { DEFAULT_SIGNED_TIME_FIELD } from './signed-time';
export type { VerifyWebhookOptions, WebhookSecrets } from './verify-webhook';
export { PaymentEventHandlers } from './event-handlers';
export type {
  PaymentEventContext,
  PaymentEventHandler,
  PaymentEventName,
  PaymentEventOf,
  PaymentEventSubscriptions,
} from './event-handlers';
