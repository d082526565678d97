import { readUpTo, utf8Bytes } from '../bytes';
import { createPaymentRoutes } from './create-payment-routes';
import { notFoundResponse } from './errors-to-response';
import { isPaymentRoutes, normalizeMountPath, pathUnderMount } from './mount-path';
import { queryOf, type NeutralRequest, type NeutralResponse } from './neutral-http';
import { bodyAlreadyConsumed } from './consumed-body';
import { bodyTooLarge } from './route-error';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';

export interface FetchHandlerOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
  /** Answers requests that are not payment routes. Default a JSON 404. */
  notFound?: (request: Request) => Response | Promise<Response>;
}

export type FetchHandler = ((request: Request) => Promise<Response>) & { paymentRoutes: PaymentRoutes };

/** The fix logged when a middleware before `createFetchHandler` read the body. */
const FETCH_CONSUMED_BODY_FIX =
  'a middleware before the payment routes read the Request body (`await request.json();`, `await request.text();`, a reader), and paymount must read the exact bytes itself: ' +
  'call the payment routes before that middleware, or have it read a copy (`await request.clone().json();`) so the original stays unread';

/** A body a middleware already read, or holds a reader on: reading it again throws "ReadableStream is locked". */
function bodyConsumed(request: Request): boolean {
  return request.bodyUsed || request.body?.locked === true;
}

/** Reads a fetch body up to `limitBytes`, cancelling the stream as soon as it grows past it or `signal` aborts. */
async function readLimited(request: Request, limitBytes: number, consumedFix: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw bodyTooLarge();
  if (request.body === null) return new Uint8Array();
  if (bodyConsumed(request)) throw bodyAlreadyConsumed(consumedFix);
  return readUpTo(request.body, limitBytes, bodyTooLarge, signal);
}

export interface FetchRequestOptions {
  /** The path relative to where the routes are mounted (see `pathUnderMount`). */
  path: string;
  limitBytes: number;
  /** Handed to the merchant's hooks (resolveOrder, event handlers) as `ctx.context`. Default: the Request. */
  context?: unknown;
  /**
   * The exact bytes (or their text) a middleware that read the body kept, as
   * Hono's `c.req.json()` keeps them: the routes read these instead of the stream.
   */
  keptBody?: Uint8Array | string;
  /** How to fix a body a middleware read and did not keep, in the framework's words: logged with `BODY_ALREADY_CONSUMED`. */
  consumedBodyFix?: string;
}

function neutralOf(request: Request, url: URL, options: FetchRequestOptions): NeutralRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  // Some runtimes keep the host in the URL only; the checkout form's origin check compares against it.
  headers['host'] ??= url.host;
  let body: Promise<Uint8Array> | undefined;
  const consumedFix = options.consumedBodyFix ?? FETCH_CONSUMED_BODY_FIX;
  const neutral: NeutralRequest = {
    method: request.method.toUpperCase(),
    path: options.path,
    headers,
    query: queryOf(url.searchParams),
    readBody: (signal) => (body ??= readLimited(request, options.limitBytes, consumedFix, signal)),
    context: options.context ?? request,
    consumedBodyFix: consumedFix,
  };
  if (options.keptBody !== undefined) neutral.parsedBody = options.keptBody;
  return neutral;
}

/** The neutral request for a fetch `Request`, for an adapter of a Fetch-API framework (Hono). */
export function toNeutralFetchRequest(request: Request, options: FetchRequestOptions): NeutralRequest {
  return neutralOf(request, new URL(request.url), options);
}

/** The fetch `Response` for a route's answer; to a HEAD request, its headers only. */
export function toFetchResponse(response: NeutralResponse, method = 'GET'): Response {
  if (method.toUpperCase() === 'HEAD') {
    const headers = { ...response.headers, 'content-length': String(utf8Bytes(response.body).byteLength) };
    return new Response(null, { status: response.status, headers });
  }
  return new Response(response.body === '' ? null : response.body, { status: response.status, headers: response.headers });
}

/**
 * The payment routes as a fetch-style `(Request) => Promise<Response>`, for
 * servers and runtimes built on the Fetch API.
 *
 * A `Request`'s URL was parsed before the app saw it, so its dot segments and
 * backslashes are already resolved: the path routed on is the one the
 * runtime, the app's router and any guard before the routes all saw. What
 * parsing leaves ambiguous (doubled slashes, percent-escapes) is refused by
 * `pathUnderMount`, as on every adapter.
 */
export function createFetchHandler(
  routesOrOptions: PaymentRoutes | PaymentRoutesOptions,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const paymentRoutes = isPaymentRoutes<PaymentRoutes>(routesOrOptions)
    ? routesOrOptions
    : createPaymentRoutes(routesOrOptions);
  const mountPath = normalizeMountPath(options.mountPath);
  const notFound = options.notFound ?? (() => toFetchResponse(notFoundResponse()));
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = pathUnderMount(url.pathname, mountPath);
    const response =
      path === undefined ? undefined : await paymentRoutes.handle(neutralOf(request, url, { path, limitBytes: paymentRoutes.bodyLimitBytes }));
    return response ? toFetchResponse(response, request.method) : notFound(request);
  };
  return Object.assign(handle, { paymentRoutes });
}
