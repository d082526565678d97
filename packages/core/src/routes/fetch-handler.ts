import { concatBytes, utf8Bytes } from '../bytes';
import { createPaymentRoutes } from './create-payment-routes';
import { notFoundResponse } from './errors-to-response';
import { isPaymentRoutes, normalizeMountPath, pathUnderMount } from './mount-path';
import { queryOf, type NeutralRequest, type NeutralResponse } from './neutral-http';
import { bodyTooLarge } from './route-error';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';

export interface FetchHandlerOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
  /** Answers requests that are not payment routes. Default a JSON 404. */
  notFound?: (request: Request) => Response | Promise<Response>;
}

export type FetchHandler = ((request: Request) => Promise<Response>) & { paymentRoutes: PaymentRoutes };

/** Reads a fetch body up to `limitBytes`, cancelling the stream as soon as it grows past it. */
async function readLimited(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw bodyTooLarge();
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw bodyTooLarge();
    }
    chunks.push(chunk.value);
  }
  return concatBytes(chunks, size);
}

function toNeutral(request: Request, url: URL, path: string, limitBytes: number): NeutralRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  // Some runtimes keep the host in the URL only; the checkout form's origin check compares against it.
  headers['host'] ??= url.host;
  let body: Promise<Uint8Array> | undefined;
  return {
    method: request.method.toUpperCase(),
    path,
    headers,
    query: queryOf(url),
    readBody: () => (body ??= readLimited(request, limitBytes)),
    context: request,
  };
}

function toResponse(response: NeutralResponse, method = 'GET'): Response {
  if (method === 'HEAD') {
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
  const notFound = options.notFound ?? (() => toResponse(notFoundResponse()));
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = pathUnderMount(url.pathname, mountPath);
    const response =
      path === undefined ? undefined : await paymentRoutes.handle(toNeutral(request, url, path, paymentRoutes.bodyLimitBytes));
    return response ? toResponse(response, request.method.toUpperCase()) : notFound(request);
  };
  return Object.assign(handle, { paymentRoutes });
}
