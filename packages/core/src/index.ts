// The root entry: what a merchant calls. Every name is listed by hand (no `export *` but the webhook
// entry's, whose names are listed by hand there) so that a new public name is a deliberate line and
// shows in api/core.index.md; each kept name is justified there. Zod schemas live in
// `@paymount/core/schemas`, the plumbing framework adapters need in `@paymount/core/http`, and the
// helpers a store implementation needs in `@paymount/core/stores`.

// Create functions
export { createPaymentClient } from './client/create-client';
export { generateTransactionRequestId } from './client/ids';
export { createPaymentRoutes } from './routes/create-payment-routes';
export { createFetchHandler } from './routes/fetch-handler';
export { createNodeMiddleware } from './routes/node-middleware';

// Bringing your own transport (the client's `transport` option)
export { AttemptTimeoutError, MAX_RESPONSE_BYTES, RequestNotSentError } from './client/transport';
export type { HttpMethod, SendOptions, Transport, TransportResponse } from './client/transport';
export { createFetchTransport } from './platform/web/transport';
export type { FetchFunction, FetchTransportOptions } from './schemas/fetch-transport-options';

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
} from './errors';
export type { PaymentApiErrorOptions, PaymentErrorOptions, ValidationIssue, WebhookFailureReason } from './errors';
export { PaymentErrorCode } from './error-codes';
export type { WebhookFailureCode } from './error-codes';
export { PaymentRouteError } from './routes/route-error';
export type { PaymentRouteErrorOptions } from './routes/route-error';

// Webhooks and events: all of `@paymount/core/webhooks` (its names are listed there, once; the
// webhook errors above are among them), and what the routes add to an event.
export * from './entries/webhooks';
export { paysOrder } from './orders/event-attempt';
export type { EventOrigin } from './webhooks/normalize-event';
export type {
  PaymentEventContext,
  PaymentEventHandler,
  PaymentEventName,
  PaymentEventOf,
  PaymentEventSubscriptions,
} from './webhooks/event-handlers';
export type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from './webhooks/event-processing';
export type { EventHandling } from './idempotency/handle-event-once';

// Money, wallet, payment status
export { currencyExponent, fromMinorUnits, toMinorUnits } from './money';
export { buildWalletPaymentRequest } from './wallet/payment-request';
export type { WalletPaymentRequest } from './wallet/payment-request';
export type { WalletPaymentRequestInput } from './types/wallet-request';
export { paymentStatusOf } from './transaction-status';
export type { PaymentStatus } from './transaction-status';
export { isSessionExpired } from './session';

// Stores: the interfaces and the in-memory implementations
export type { IdempotencyKeyState, IdempotencyStore } from './idempotency/store';
export { MemoryIdempotencyStore } from './idempotency/memory-store';
export type { MemoryIdempotencyStoreOptions } from './idempotency/memory-store';
export type { OrderAttemptStore } from './orders/store';
export type {
  FinalOrderAttemptState,
  OrderAttempt,
  OrderAttemptKind,
  OrderAttemptState,
  OrderAttemptUpdate,
} from './types/order-attempt';
export { MemoryOrderAttemptStore } from './orders/memory-store';
export type { MemoryOrderAttemptStoreOptions } from './orders/memory-store';

// Logging
export { consoleLogger, createRedactingLogger, silentLogger } from './logger';
export type { LogFn, Logger, LoggerOption } from './logger';

// Telemetry
export type { PaymentTelemetry, PaymentTelemetryOptions } from './types/telemetry';

// Client option and result types
export type { Clock, PaymentClientOptions, PemCertificate, RetryOptions, Sleep } from './types/client-options';
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
export type { Amount, ProductLineItem, RefundAmount } from './types/amount';
export type { CheckoutAddress } from './types/address';
export type {
  CheckoutSessionRequest,
  DirectPaymentRequest,
  ExpireCheckoutSessionRequest,
  RefundRequest,
  TerminalSaleRequest,
  TransactionQuery,
} from './types/requests';

// Route handler option and result types
export type { AdapterOptionKind, AdapterOptionKinds } from './routes/adapter-options';
export type { FetchHandler, FetchHandlerOptions } from './routes/fetch-handler';
export type { NodeMiddleware, NodeMiddlewareOptions } from './routes/node-middleware';
export type { OrderPaymentStatus } from './routes/status';
export type { CancelCheckoutResult } from './types/cancel-checkout';
export type { ReconcileOptions, ReconcileSummary } from './types/reconcile';
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
