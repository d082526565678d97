// The web platform: the fetch transport, the isolate probe, a fetch `Request` to a neutral request
// and back.
import { bodyAlreadyConsumed, bodyTooLarge, type NeutralRequest, type NeutralResponse, queryOf } from '../../http/neutral-http';
import { readUpTo, utf8Bytes, utf8Text } from '../../shared/bytes';
import { validate } from '../../shared/validation';
import { AttemptTimeoutError, type FetchFunction, type FetchTransportOptions, fetchTransportOptionsSchema, type HttpMethod, MAX_RESPONSE_BYTES, responseTooLarge, type Transport, type TransportResponse } from '../contract';
import type { Platform } from '../contract/platform';
import { webCrypto } from './crypto';

interface DenoGlobal {
  env?: { get(name: string): string | undefined };
  permissions?: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

interface RuntimeGlobals {
  EdgeRuntime?: unknown;
  Bun?: unknown;
  Deno?: DenoGlobal;
  Netlify?: unknown;
  navigator?: { userAgent?: unknown };
  process?: { versions?: { node?: unknown } };
}

/** Set by Deno Deploy in every deployment (and by no local `deno run` unless someone sets it). */
const DENO_DEPLOYMENT_ID = 'DENO_DEPLOYMENT_ID';

/**
 * The runtimes where a request may be served by an isolate that has not seen
 * the previous one: memory kept by one request protects nothing for the next.
 * Bun, Deno and Node serve every request from one process, except Deno on an
 * isolate host (Deno Deploy, Netlify's and Supabase's edge functions); an
 * unknown runtime is counted among the isolated ones, where the warning it
 * gets is the safe side.
 */
export function isolatedMemory(): string | undefined {
  const runtime = globalThis as RuntimeGlobals;
  if (typeof runtime.EdgeRuntime === 'string') return 'the Next.js edge runtime';
  if (runtime.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers (workerd)';
  if (runtime.Deno !== undefined) return denoIsolateHost(runtime, runtime.Deno);
  if (runtime.Bun !== undefined || typeof runtime.process?.versions?.node === 'string') return undefined;
  return 'this runtime';
}

/**
 * Netlify's edge functions expose a `Netlify` global, Supabase's an
 * `EdgeRuntime` object (`EdgeRuntime.waitUntil`; Next.js's is a string).
 */
function denoIsolateHost(runtime: RuntimeGlobals, deno: DenoGlobal): string | undefined {
  if (typeof runtime.Netlify === 'object' && runtime.Netlify !== null) return 'Netlify Edge Functions';
  if (typeof runtime.EdgeRuntime === 'object' && runtime.EdgeRuntime !== null) return 'Supabase Edge Functions';
  return onDenoDeploy(deno) ? 'Deno Deploy' : undefined;
}

/**
 * Deno Deploy grants env access; elsewhere `Deno.env.get` without --allow-env
 * throws NotCapable (or prompts on a terminal), so the variable is read only
 * where the permission is already granted. A `deno run` that may not read it
 * is a local process.
 */
function onDenoDeploy(deno: DenoGlobal): boolean {
  try {
    const state = deno.permissions?.querySync?.({ name: 'env', variable: DENO_DEPLOYMENT_ID }).state;
    if (state !== undefined && state !== 'granted') return false;
    return deno.env?.get(DENO_DEPLOYMENT_ID) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The client's transport on runtimes without undici: the runtime's `fetch`
 * (and its connection pool), with what the undici transport guarantees: the
 * attempt's time limit and the caller's signal abort it, redirects are not
 * followed, and a body over MAX_RESPONSE_BYTES is cancelled as it streams in.
 * Public too: on Node it sends through the global fetch instead of undici's
 * dispatcher, and `fetch` routes every attempt through a function of the
 * app's (a Cloudflare service binding, an instrumented fetch).
 */
export function createFetchTransport(options: FetchTransportOptions): Transport {
  const { baseUrl, fetch: ownFetch } = validate(fetchTransportOptionsSchema, options, 'fetch transport options');
  return fetchTransport(baseUrl, ownFetch);
}

/** The transport itself, for a base URL already validated (the platform's, from the client's options). */
export function fetchTransport(baseUrl: string, ownFetch?: FetchFunction): Transport {
  const base = new URL(baseUrl);
  const prefix = base.origin + base.pathname.replace(/\/+$/, '');

  return {
    async send(method, path, headers, body, { timeoutMs, signal }) {
      const controller = new AbortController();
      // What ended the attempt, rethrown as is: runtimes differ in what fetch rejects with after abort().
      let abortedWith: Error | undefined;
      const abort = (reason: Error) => {
        abortedWith ??= reason;
        controller.abort(reason);
      };
      const onAbort = () => abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted by the caller'));
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted by the caller');
      const timer = setTimeout(() => abort(new AttemptTimeoutError(timeoutMs)), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // The URL and init straight to fetch: building a Request first would have fetch build a second one.
        // The global one is looked up per attempt, so a fetch an app or framework installs later is the one used.
        const response = await (ownFetch ?? fetch)(prefix + path, { method, headers, body, signal: controller.signal, redirect: 'manual' });
        return answerOf(response, await boundedText(response, method, path));
      } catch (error) {
        throw abortedWith ?? error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    },
    // The runtime owns fetch's connections: there is nothing of the client's to release.
    async close() {},
  };
}

/**
 * The answer with its headers copied only when read: the client reads them
 * only on a refusal or a body that is not JSON, so a success answer does not
 * pay for walking the Headers object.
 */
function answerOf(response: Response, body: string): TransportResponse {
  let headers: TransportResponse['headers'] | undefined;
  return {
    status: response.status,
    body,
    get headers() {
      if (headers === undefined) {
        const copy: TransportResponse['headers'] = {};
        response.headers.forEach((value, name) => (copy[name] = value));
        headers = copy;
      }
      return headers;
    },
  };
}

/**
 * The body as text, refused past MAX_RESPONSE_BYTES. An uncompressed body whose
 * Content-Length is within the limit is read whole by the runtime (a fetch
 * client never reads past it); any other is counted chunk by chunk and
 * cancelled as soon as it grows past the limit, which also stops a small
 * compressed body from inflating without bound.
 */
async function boundedText(response: Response, method: HttpMethod, path: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoding = response.headers.get('content-encoding');
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw responseTooLarge(method, path);
  }
  if (Number.isFinite(declared) && (encoding === null || encoding === 'identity')) return response.text();
  if (response.body === null) return '';
  return utf8Text(await readUpTo(response.body, MAX_RESPONSE_BYTES, () => responseTooLarge(method, path)));
}

/**
 * Every runtime but Node: Web Crypto and fetch. `@opentelemetry/api` is not
 * loaded by name (a bundler would fail on the optional import when it is not
 * installed): the app passes it as `telemetry: { api }`.
 */
export const webPlatform: Platform = {
  name: 'web',
  crypto: webCrypto,
  // The client's schema has validated the base URL, and refuses the Node transport's options (dispatcher, ca) on this build.
  createTransport: ({ baseUrl }) => fetchTransport(baseUrl),
  loadOtelApi: () => undefined,
  isolatedMemory,
};

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
