// The root entry: what a merchant calls. Every name is listed by hand (no `export *` but the webhook
// entry's, whose names are listed by hand there) so that a new public name is a deliberate line and
// shows in api/core.index.md; each kept name is justified there. Zod schemas live in
// `@paymount/core/schemas`, the plumbing framework adapters need in `@paymount/core/http`, and the
// helpers a store implementation needs in `@paymount/core/stores`.

// Create functions
export { createPaymentClient } from './client/payment-client';
export { generateTransactionRequestId } from './client/payment-client';
export { createPaymentRoutes } from './routes/create-payment-routes';
export { createFetchHandler } from './routes/mounts';
export { createNodeMiddleware } from './routes/mounts';

// Bringing your own transport (the client's `transport` option)
export { AttemptTimeoutError, MAX_RESPONSE_BYTES, RequestNotSentError } from './platform/contract';
export type { HttpMethod, SendOptions, Transport, TransportResponse } from './platform/contract';
export { createFetchTransport } from './platform/web';
export type { FetchFunction, FetchTransportOptions } from './platform/contract';

// Errors
export {
  PaymentApiError,
  PaymentError,
  PaymentNetworkError,
  PaymentNotFoundError,
  PaymentRateLimitError,
  PaymentResponseError,
  PaymentStoreUnavailableError,
  PaymentTimeoutError,
  PaymentValidationError,
  WebhookPayloadError,
  WebhookVerificationError,
} from './shared/errors';
export type { PaymentApiErrorOptions, PaymentErrorOptions, ValidationIssue, WebhookFailureReason } from './shared/errors';
export { PaymentErrorCode } from './shared/errors';
export type { WebhookFailureCode } from './shared/errors';
export { PaymentRouteError } from './http/neutral-http';
export type { PaymentRouteErrorOptions } from './http/neutral-http';

// Webhooks and events: all of `@paymount/core/webhooks` (its names are listed there, once; the
// webhook errors above are among them), and what the routes add to an event.
export * from './entries/webhooks';
export { paysOrder } from './orders/reconcile';
export type { EventOrigin } from './webhooks/normalize-event';
export type {
  PaymentEventContext,
  PaymentEventHandler,
  PaymentEventName,
  PaymentEventOf,
  PaymentEventSubscriptions,
} from './webhooks/event-handlers';
export type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from './webhooks/event-handlers';
export type { EventHandling } from './webhooks/event-handlers';

// Money, wallet, payment status
export { currencyExponent, fromMinorUnits, toMinorUnits } from './shared/money';
export { buildWalletPaymentRequest } from './routes/order-routes';
export type { WalletPaymentRequest } from './routes/order-routes';
export type { WalletPaymentRequestInput } from './shared/types';
export { paymentStatusOf } from './shared/types';
export type { PaymentStatus } from './shared/types';
export { isSessionExpired } from './client/types';

// Stores: the interfaces and the in-memory implementations
export type { IdempotencyKeyState, IdempotencyStore } from './webhook-dedupe/store';
export { ClaimLostError, MemoryIdempotencyStore } from './webhook-dedupe/store';
export type { MemoryIdempotencyStoreOptions } from './webhook-dedupe/store';
export type { OrderAttemptStore } from './orders/store';
export type {
  FinalOrderAttemptState,
  OrderAttempt,
  OrderAttemptKind,
  OrderAttemptState,
  OrderAttemptUpdate,
} from './shared/types';
export { MemoryOrderAttemptStore } from './orders/store';
export type { MemoryOrderAttemptStoreOptions } from './orders/store';

// Logging
export { consoleLogger, createRedactingLogger, silentLogger } from './shared/logger';
export type { LogFn, Logger, LoggerOption } from './shared/logger';

// Telemetry
export type { PaymentTelemetry, PaymentTelemetryOptions } from './shared/types';

// Client option and result types
export type { Clock, PaymentClientOptions, PemCertificate, RetryOptions, Sleep } from './schemas/client-option-types';
export type {
  AnsweredRefund,
  CallOptions,
  CheckoutSession,
  CheckoutSessionInput,
  DirectPaymentInput,
  DirectPaymentResult,
  ExpireCheckoutSessionInput,
  ExpiredCheckoutSession,
  PaymentClient,
  PaymentResult,
  RefundInput,
  RefundResult,
  TerminalSaleInput,
  TerminalSaleResult,
  TransactionAmount,
  TransactionDetails,
  TransactionLookup,
  TransactionResultReason,
  UnknownOutcome,
  OneOf,
  WithClientDefaults,
} from './client/types';
// Written out in src/types, so that these declarations name no zod (issue 30); the schemas are held to them.
export type { Amount, ProductLineItem, RefundAmount } from './shared/types';
export type { CheckoutAddress } from './shared/types';
export type {
  CheckoutSessionRequest,
  DirectPaymentRequest,
  ExpireCheckoutSessionRequest,
  RefundRequest,
  TerminalSaleRequest,
  TransactionQuery,
} from './shared/types';

// Route handler option and result types
export type { AdapterOptionKind, AdapterOptionKinds } from './routes/adapter-options';
export type { FetchHandler, FetchHandlerOptions, FetchRequestContext } from './routes/mounts';
export type { NodeMiddleware, NodeMiddlewareOptions } from './routes/mounts';
export type { OrderPaymentStatus } from './routes/order-routes';
export type { OrderGuardSettings } from './orders/next-attempt';
export type { DedupeSettings } from './webhook-dedupe/handle-event-once';
export type { CancelCheckoutResult } from './shared/types';
export type { ReconcileOptions, ReconcileSummary } from './shared/types';
export type {
  MerchantOrder,
  OrderGuardOptions,
  OrderLookupContext,
  PaymentRoutes,
  PaymentRoutesOptions,
  PaymentRouteName,
  ResolveOrder,
  WalletRouteOptions,
  WebhookRouteOptions,
  WebhookRouteSettings,
} from './routes/types';
