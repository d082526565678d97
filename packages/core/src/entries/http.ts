// `@paymount/core/http`: the plumbing a framework adapter (Express, Koa, Fastify, NestJS, Hono, or a
// merchant's own) needs to hand a framework's request to the handlers and write their answer back.
// A merchant using an adapter, `createFetchHandler` or `createNodeMiddleware` never imports it.
// Listed by name; the report of this entry is api/core.http.md.
export type { NeutralHeaders, NeutralRequest, NeutralResponse } from '../routes/neutral-http';
export { readNodeBody, toNeutralRequest, writeNeutralResponse } from '../routes/node-http-bridge';
export type { ToNeutralRequestOptions } from '../routes/node-http-bridge';
export type { BodyParserLeftovers } from '../routes/consumed-body';
export { toFetchResponse, toNeutralFetchRequest } from '../routes/fetch-handler';
export type { FetchRequestOptions } from '../routes/fetch-handler';
export { normalizeMountPath, pathUnderMount, rawPathOf } from '../routes/mount-path';
export { PAYMENT_ROUTE_PATHS } from '../routes/route-paths';
export type { PaymentRoutePath } from '../routes/route-paths';
export { internalErrorResponse, optionsUnavailableResponse, routesOnFirstUse } from '../routes/routes-on-first-use';
