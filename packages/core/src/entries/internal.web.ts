// `@paymount/core/internal`: what the workspace's own packages and core's tests need of core beyond
// the public entries: the sandbox shares core's field rules and messages so both sides refuse a body
// in the same words, and the tests reach the parts they exercise one by one. Not for applications:
// no API report, no semver promise; a name here may change in any release. Through this entry a
// file move inside src/ breaks neither a test nor another package. The web builds take this file as
// it is; internal.ts adds the Node platform's parts for the Node build (tsup.config.ts).
export { hexOf } from '../shared/bytes';
export { buildAuthHeaders, formatTimestamp } from '../client/payment-client';
export { backoffDelay } from '../client/payment-client';
export { parseRetryAfter } from '../client/response';
export { currencyExponents } from '../shared/money';
export { WEBHOOK_FAILURE_REASONS } from '../shared/errors';
export { DELIVERY_FAILURE_ANCHORS, DOCS_BASE_URL, docsUrl, guideSectionUrl, headingAnchor } from '../shared/docs-links';
export type { DeliveryFailureAnchor } from '../shared/docs-links';
export { Redactor } from '../shared/logger';
export { withAttempt } from '../orders/reconcile';
export { isRefusal, notPayable, requestIdSource, SERVICE_TIMESTAMP_REACH_MS } from '../orders/next-attempt';
export type { OrderRefusal } from '../orders/next-attempt';
export { platform } from '../platform/current';
export { platformCrypto } from '../platform/current-verifier';
export type { TransportOptions } from '../platform/contract';
export { webCrypto } from '../platform/web/crypto';
export { readRequestBody } from '../http/neutral-http';
export { errorToAnswer, jsonResponse } from '../http/error-answers';
export { MOUNTING_ORDER_FIX, clockFix } from '../http/error-answers';
export { MAX_JSON_DEPTH } from '../http/neutral-http';
export { queryOfTarget } from '../http/neutral-http';
export { paymentRoutesOptionsSchema } from '../routes/options-schema';
export type { ResolvedOrderOptions, ResolvedWebhookOptions } from '../routes/options-schema';
export { defaulted } from '../schemas/client-options';
export type { Resolved } from '../schemas/client-options';
export { DEFAULT_CARD_NETWORKS, refusalError, unlessRefused } from '../routes/order-routes';
export { ROUTE_MARKER_HEADER } from '../http/neutral-http';
export { compiled } from '../schemas/compiled';
export { transactionRequestIdSchema } from '../schemas/fields';
export { isPublicUrlHost } from '../schemas/urls';
export { SURROUNDING_WHITESPACE_RULE } from '../shared/validation';
export { SESSION_LIFETIME_MS, parseExpiresAt } from '../client/response';
export { telemetryOptionsSchema } from '../schemas/client-options';
export { checkAgainst, describeIssues, toValidationIssue, toValidationIssues } from '../shared/validation';
export { expectationMessage } from '../shared/validation';
export { walletPaymentRequestInputSchema } from '../schemas/requests';
export { eventFieldIssues, payloadIssues } from '../webhooks/event-checks';
export { EVENT_FIELD_SCHEMAS } from '../webhooks/event-fields';
export { PaymentEventRegistry } from '../webhooks/event-handlers';
export { eventTypeOf, normalizeEvent } from '../webhooks/normalize-event';
export { webhookPayloadSchema } from '../webhooks/payload';
export { parseSignedTime } from '../webhooks/signature';
// Whole modules, for the test that holds every field limit to the service's contract.
export * as clientRequestIdRules from '../schemas/client-request-id';
export * as fieldRules from '../schemas/fields';
