import type { IncomingMessage, ServerResponse } from 'node:http';
import { PaymentError, PaymentErrorCode } from '@paymount/core';
import { pathUnderMount, rawPathOf, writeNeutralResponse, type NeutralResponse } from '@paymount/core/http';

/**
 * What Nest's Express platform hands a controller: Express's `Request`, a Node
 * request with the bytes Nest kept when `rawBody: true`. Described by its
 * shape, so paymount's types need neither express's nor fastify's.
 */
export type NestExpressRequest = IncomingMessage & { rawBody?: Buffer; params?: Record<string, unknown>; body?: unknown };

/** What Nest's Fastify platform hands a controller: a `FastifyRequest` over the Node request (`raw`). */
export interface NestFastifyRequest {
  raw: IncomingMessage;
  rawBody?: Buffer;
  params?: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  body?: unknown;
}

/** The request `resolveOrder` and `@OnPaymentEvent` methods get as `ctx.context`: `'raw' in request` on Fastify. */
export type NestPlatformRequest = NestExpressRequest | NestFastifyRequest;

interface FastifyReply {
  code(status: number): FastifyReply;
  headers(headers: Record<string, string>): FastifyReply;
  send(body: string): unknown;
  callNotFound(): unknown;
}

/** How PaymentsController reads a request and answers on one of Nest's HTTP platforms. */
export interface NestPlatform {
  /** The controller's route for "every path below": each platform's router spells the wildcard its own way. */
  readonly wildcard: string;
  /**
   * The Node request underneath, the bytes Nest's parser kept (`rawBody: true`), and the path below the
   * controller as sent, undefined when that is not spelled plainly (see `pathUnderMount`).
   */
  read(req: unknown): { node: IncomingMessage; rawBody: Buffer | undefined; path: string | undefined };
  write(res: unknown, response: NeutralResponse): void;
  /** Hands a path that is not a payment route back to the app, which answers it (404 by default). */
  passOn(res: unknown, next: (() => void) | undefined): void;
}

/**
 * The path below the controller, read from the URL as sent under the route the router matched
 * (`/payments/*path`): not from the wildcard parameter, which both routers decode (`%63heckout` is
 * `checkout` there) while a middleware or guard matching the URL does not.
 */
function pathBelowRoute(node: IncomingMessage, route: unknown, wildcard: string): string | undefined {
  const suffix = `/${wildcard}`;
  if (typeof route !== 'string' || !route.endsWith(suffix)) {
    // Every payment route would otherwise be a silent 404.
    throw new PaymentError(
      `PaymentsModule cannot tell which path its controller matched: the router reports the route ${JSON.stringify(route)}, ` +
        `not one ending in "${suffix}". Use the Nest and platform versions paymount supports (see its peerDependencies).`,
      { code: PaymentErrorCode.UNSUPPORTED_PLATFORM },
    );
  }
  return pathUnderMount(rawPathOf(node.url ?? '/'), route.slice(0, -suffix.length));
}

const expressPlatform: NestPlatform = {
  wildcard: '*path',
  read(req) {
    // `route` is the route Express matched, e.g. `/payments/*path`.
    const request = req as NestExpressRequest & { route?: { path?: unknown } };
    return { node: request, rawBody: request.rawBody, path: pathBelowRoute(request, request.route?.path, this.wildcard) };
  },
  write: (res, response) => writeNeutralResponse(res as ServerResponse, response),
  passOn: (_res, next) => next?.(),
};

const fastifyPlatform: NestPlatform = {
  // find-my-way takes an unnamed wildcard, and only as the route's last character.
  wildcard: '*',
  read(req) {
    // `routeOptions.url` is the route Fastify matched, e.g. `/payments/*`.
    const request = req as NestFastifyRequest & { routeOptions?: { url?: unknown } };
    return { node: request.raw, rawBody: request.rawBody, path: pathBelowRoute(request.raw, request.routeOptions?.url, this.wildcard) };
  },
  write: (res, response) => void (res as FastifyReply).code(response.status).headers(response.headers).send(response.body),
  // Fastify hands a route no `next`: its not-found handler (Nest's 404) takes the request instead.
  passOn: (res) => void (res as FastifyReply).callNotFound(),
};

/** The platform behind Nest's HTTP adapter type, or a start-up error saying which ones paymount serves. */
export function nestPlatform(type: string): NestPlatform {
  if (type === 'express') return expressPlatform;
  if (type === 'fastify') return fastifyPlatform;
  throw new PaymentError(
    `PaymentsModule cannot serve its routes on Nest's "${type}" HTTP platform. ` +
      'Create the app on @nestjs/platform-express (the default) or @nestjs/platform-fastify (new FastifyAdapter()), with rawBody: true.',
    { code: PaymentErrorCode.UNSUPPORTED_PLATFORM },
  );
}
