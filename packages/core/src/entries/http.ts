// `@paymount/core/http`: the plumbing a framework adapter (Express, Koa, Fastify, NestJS, Hono, or a
// merchant's own) needs to hand a framework's request to the handlers and write their answer back.
// A merchant using an adapter, `createFetchHandler` or `createNodeMiddleware` never imports it.
// Listed by name; the report of this entry is api/core.http.md.
export type { NeutralHeaders, NeutralRequest, NeutralResponse } from '../http/neutral-http';
export { readNodeBody, serveNodeRequest, toNeutralRequest, writeNeutralResponse } from '../platform/node/http-bridge';
export type { NodeServedRoutes, ServeNodeRequestOptions, ToNeutralRequestOptions } from '../platform/node/http-bridge';
export type { BodyParserLeftovers } from '../http/neutral-http';
export { toFetchResponse, toNeutralFetchRequest } from '../platform/web';
export type { FetchRequestOptions } from '../platform/web';
export { normalizeMountPath, pathUnderMount, rawPathOf } from '../http/neutral-http';
export { PAYMENT_ROUTE_PATHS } from '../http/neutral-http';
export type { PaymentRoutePath } from '../http/neutral-http';
export { internalErrorResponse, optionsUnavailableResponse, routesOnFirstUse } from '../routes/mounts';
