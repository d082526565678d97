export { createPaymentHandlers, DEFAULT_ATTEMPT_TTL_MS, DEFAULT_BODY_LIMIT_BYTES } from './create-payment-handlers';
export { createFetchHandler } from './fetch-handler';
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler';
export { createNodeMiddleware } from './node-middleware';
export type { NodeMiddleware, NodeMiddlewareOptions } from './node-middleware';
export { readNodeBody, toNeutralRequest, writeNeutralResponse } from './node';
export type { ToNeutralRequestOptions } from './node';
export { PaymentRouteError } from './route-error';
export type { OrderPaymentStatus } from './status';
export type {
  MerchantOrder,
  OrderGuardOptions,
  OrderLookupContext,
  PaymentHandlers,
  PaymentHandlersOptions,
  PaymentRouteName,
  ResolveOrder,
  WalletRouteOptions,
  WebhookRouteOptions,
} from './types';
