import { bodyTooLarge, type NeutralRequest, type NeutralResponse, queryOf } from '../../http/neutral-http';
import { bodyAlreadyConsumed } from '../../http/request-body';
import { readUpTo, utf8Bytes } from '../../shared/bytes';

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

/** The neutral request for a fetch `Request` whose URL is parsed already. */
export function neutralOf(request: Request, url: URL, options: FetchRequestOptions): NeutralRequest {
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
