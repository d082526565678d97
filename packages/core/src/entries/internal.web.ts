// `@paymount/core/internal`: what the workspace's own packages and core's tests need of core beyond
// the public entries: the sandbox shares core's field rules and messages so both sides refuse a body
// in the same words, and the tests reach the parts they exercise one by one. Not for applications:
// no API report, no semver promise; a name here may change in any release. Through this entry a
// file move inside src/ breaks neither a test nor another package. The web builds take this file as
// it is; internal.ts adds the Node platform's parts for the Node build (tsup.config.ts).
export { hexOf } from '../bytes';
export { buildAuthHeaders, formatTimestamp } from '../client/auth-headers';
export { backoffDelay, parseRetryAfter } from '../client/retry';
export { currencyExponents } from '../currencies';
export { WEBHOOK_FAILURE_REASONS } from '../error-codes';
export { Redactor } from '../logger';
export { withAttempt } from '../orders/event-attempt';
export { SERVICE_TIMESTAMP_REACH_MS } from '../orders/late-arrival';
export { isRefusal, notPayable } from '../orders/refusals';
export type { OrderRefusal } from '../orders/refusals';
export { requestIdSource } from '../orders/request-ids';
export { platform } from '../platform/current';
export { platformCrypto } from '../platform/current-verifier';
export type { TransportOptions } from '../platform/types';
export { webCrypto } from '../platform/web/crypto';
export { readRequestBody } from '../routes/body';
export { errorToAnswer, jsonResponse } from '../routes/errors-to-response';
export { MOUNTING_ORDER_FIX, clockFix } from '../routes/failure-log';
export { MAX_JSON_DEPTH } from '../routes/json-depth';
export { queryOfTarget } from '../routes/neutral-http';
export { paymentRoutesOptionsSchema } from '../routes/options-schema';
export { refusalError, unlessRefused } from '../routes/order-refusals';
export { ROUTE_MARKER_HEADER } from '../routes/route-marker';
export { compiled } from '../schemas/compiled';
export { transactionRequestIdSchema } from '../schemas/fields';
export { isPublicUrlHost } from '../schemas/public-host';
export { SURROUNDING_WHITESPACE_RULE } from '../schemas/secret-length';
export { SESSION_LIFETIME_MS, parseExpiresAt } from '../session';
export { telemetryOptionsSchema } from '../telemetry/options';
export { checkAgainst, describeIssues, toValidationIssue, toValidationIssues } from '../validation';
export { expectationMessage } from '../validation-messages';
export { walletPaymentRequestInputSchema } from '../wallet/input-schema';
export { DEFAULT_CARD_NETWORKS } from '../wallet/payment-request';
export { EVENT_FIELD_ISSUES, webhookPayloadIssues } from '../webhooks/compiled-checks';
export { EVENT_FIELD_SCHEMAS } from '../webhooks/event-fields';
export { PaymentEventRegistry } from '../webhooks/event-handlers';
export { eventTypeOf, normalizeEvent } from '../webhooks/normalize-event';
export { webhookPayloadSchema } from '../webhooks/payload';
export { parseSignedTime } from '../webhooks/signed-time';
// Whole modules, for the test that holds every field limit to the service's contract.
export * as clientRequestIdRules from '../schemas/client-request-id';
export * as fieldRules from '../schemas/fields';
