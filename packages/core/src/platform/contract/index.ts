// What core asks of a platform's crypto and transport, and the transport's errors and options (the
// platform as a whole, with OpenTelemetry, is platform.ts).
import * as z from 'zod/mini';
import { PaymentErrorCode, PaymentNetworkError, PaymentResponseError } from '../../shared/errors';

/*
 * What differs between the runtimes core runs on, behind interfaces small
 * enough to implement twice: `node/` (node:crypto, undici) and `web/` (Web
 * Crypto, fetch). The build picks one through package.json's export conditions
 * (see current.ts); nothing else in core knows which it got.
 */
/**
 * HMAC-SHA256 and SHA-256 over bytes (a string is its UTF-8 bytes: node:crypto
 * hashes it without a copy).
 */
export interface PlatformCrypto {
  hmacSha256(secret: string, data: string | Uint8Array): Promise<Uint8Array>;
  sha256(data: string | Uint8Array): Promise<Uint8Array>;
  /**
   * The same HMAC as lowercase hex, without a promise, where the runtime
   * computes it synchronously (node:crypto): what `signWebhook` signs with,
   * and what the verifier checks a delivery with on Node, with no promise
   * (webhooks/verify-webhook.ts `checkDelivery` says what that saves).
   */
  hmacSha256HexSync?: ((secret: string, data: string | Uint8Array) => string) | undefined;
}

/** The methods the service's endpoints take: POST with a JSON body, GET (the transaction query) without one. */
export type HttpMethod = 'POST' | 'GET';

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SendOptions {
  /** This attempt's own limit; past it the request is aborted and `send` rejects with AttemptTimeoutError. */
  timeoutMs: number;
  /** The caller's signal; aborting it aborts the request. */
  signal?: AbortSignal | undefined;
}

/**
 * How the client's requests reach the service: one attempt per `send`. Give
 * your own as the client's `transport` option to route them through anything
 * (a proxy, a service binding). `send` rejects with `AttemptTimeoutError` when
 * `timeoutMs` passes; throws synchronously, or rejects with a TypeError carrying
 * no error `code`, only when nothing was sent (the call then fails, not
 * retried, rather than leaving a payment in doubt).
 */
export interface Transport {
  /** One attempt; `body` is undefined for a GET. `path` is relative to the client's base URL. */
  send(
    method: HttpMethod,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: SendOptions,
  ): Promise<TransportResponse>;
  /** Releases the connections; `close()` of a client closes only a transport it made itself. */
  close(): Promise<void>;
}

/** What a platform's own transport is built from: the client options that concern it. */
export interface TransportOptions {
  baseUrl: string;
  /** Node only: an undici Dispatcher of the caller's (validated by the client options schema). */
  dispatcher?: unknown;
  /** Node only: extra CA certificates (PEM) trusted for the service's TLS certificate. */
  ca?: string | Uint8Array | ReadonlyArray<string | Uint8Array> | undefined;
}


/** The header each request carries its id in (the service's duplicate check; the TLS guard names the request by it). */
export const CLIENT_REQUEST_ID_HEADER = 'X-Client-Request-Id';

/** Bodies larger than this are not a response envelope; reading stops rather than filling memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export function responseTooLarge(method: HttpMethod, path: string): PaymentResponseError {
  return new PaymentResponseError(`${method} ${path} answered with a body over ${MAX_RESPONSE_BYTES} bytes; not a response envelope`);
}

/** An attempt got no complete answer within its time limit; whether the service acted on it is unknown. */
export class AttemptTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeoutError';
  }
}

/**
 * Nothing of the request left this process: the runtime refused to make it (a
 * missing permission, an API it lacks, a request it will not build). A
 * transport rejects with this (or throws anything synchronously from `send`)
 * so the call fails at once instead of leaving a payment in doubt.
 */
export class RequestNotSentError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'RequestNotSentError';
  }
}

/** Connection-level failures before anything was sent: the request cannot have been processed. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** TLS and certificate failures: retrying cannot help, and nothing was sent. */
const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** Deno's errors for a permission the process was not given (`--allow-net`): the request never left. */
const PERMISSION_ERRORS = new Set(['NotCapable', 'PermissionDenied']);

/**
 * How fetch implementations word a network failure, which the Fetch standard
 * makes a TypeError without a code: undici's `fetch failed` (the code is on
 * its cause), Deno's `fetch failed` (hyper's words on its cause), workerd's
 * `Network connection lost` (an Error). A TypeError worded otherwise was raised
 * before the runtime tried the network (an API it lacks, a request it refused).
 */
const FETCH_NETWORK_FAILURE = /fetch failed|error sending request|network|connection|socket|terminated/i;
/**
 * A request to a port the Fetch standard blocks (6000, 10080...), refused
 * before any connection: undici's fetch (Node's global fetch) puts `bad port`
 * on the cause of its `fetch failed`; Deno 2.9 rejects with `Fetch failed:
 * Requests to port 6000 are blocked`. Bun blocks no port.
 */
const FETCH_BLOCKED_PORT = /^bad port$|Requests to port \d+ are blocked/;
/**
 * Deno's words, on the cause of its `fetch failed`, for a connection never
 * made: `client error (Connect)` before a refused TCP connect (`Connection
 * refused`) or a failed DNS lookup (`dns error`). After the connection, hyper
 * says `(SendRequest)` or the OS error (`Connection reset by peer`): sent.
 * Node's undici and Bun give a code instead (ECONNREFUSED, ENOTFOUND). workerd
 * says `Network connection lost.` for a refused connection and for a reset
 * after sending alike, so it stays an unknown outcome there.
 */
const FETCH_CONNECT_FAILURE = /client error \(Connect\)/;

export interface ClassifiedNetworkError {
  error: PaymentNetworkError;
  retryable: boolean;
}

/**
 * Maps what a transport threw to a PaymentNetworkError saying whether the
 * request may have reached the service. `thrownSync`: `send` threw instead of
 * returning its promise, so nothing can have been sent.
 */
export function classifyNetworkError(cause: unknown, method: HttpMethod, path: string, thrownSync = false): ClassifiedNetworkError {
  const code = errorCode(cause);
  if (code !== undefined && TLS_FAILURE.test(code)) {
    return {
      error: new PaymentNetworkError(
        `TLS connection for ${method} ${path} refused (${code}): the service must offer TLS 1.2 or higher with a trusted certificate`,
        { code: PaymentErrorCode.TLS_ERROR, cause },
      ),
      retryable: false,
    };
  }
  if (thrownSync || refusedByRuntime(cause, code)) return { error: notSentError(cause, method, path), retryable: false };
  const sent = code === undefined ? chainLink(cause, FETCH_CONNECT_FAILURE) === undefined : !NOT_SENT.has(code);
  const detail = code ?? innermostMessage(cause);
  // A read changes nothing at the service, so its outcome is never in doubt.
  const outcomeUnknown = sent && method === 'POST';
  return {
    error: new PaymentNetworkError(
      sent
        ? `Connection lost during ${method} ${path} (${detail})${outcomeUnknown ? '; the request may have been processed' : ''}`
        : `Could not connect for ${method} ${path} (${detail})`,
      { outcomeUnknown, cause },
    ),
    retryable: true,
  };
}

/** True for an error that says the runtime refused to make the request at all, so nothing was sent. */
function refusedByRuntime(cause: unknown, code: string | undefined): boolean {
  if (cause instanceof RequestNotSentError || errorNamed(cause, PERMISSION_ERRORS) !== undefined || chainLink(cause, FETCH_BLOCKED_PORT) !== undefined) return true;
  return code === undefined && cause instanceof TypeError && chainLink(cause, FETCH_NETWORK_FAILURE) === undefined;
}

function notSentError(cause: unknown, method: HttpMethod, path: string): PaymentNetworkError {
  const permission = errorNamed(cause, PERMISSION_ERRORS);
  const blockedPort = chainLink(cause, FETCH_BLOCKED_PORT);
  const reason = notSentReason(cause, blockedPort);
  const fix =
    permission !== undefined
      ? "the runtime denied network access: on Deno, run with --allow-net naming the service's host"
      : blockedPort !== undefined
        ? "the client's baseUrl names a port fetch refuses to connect to (the Fetch standard's blocked ports, such as 6000 and 10080): serve the payment service on another port"
        : "this runtime's HTTP client could not make the request: check that it provides fetch, or pass a working `transport` in the client options";
  return new PaymentNetworkError(`${method} ${path} was not sent (${reason}); nothing reached the service: ${fix}`, {
    code: PaymentErrorCode.TRANSPORT_UNAVAILABLE,
    outcomeUnknown: false,
    cause,
  });
}

/** The runtime's words for the refusal: a blocked port's under its wrapper (undici's `fetch failed: bad port`). */
function notSentReason(cause: unknown, blockedPort: Error | undefined): string {
  if (!(cause instanceof Error)) return String(cause);
  if (blockedPort !== undefined && blockedPort !== cause) return `${cause.message}: ${blockedPort.message}`;
  return blockedPort !== undefined || cause instanceof RequestNotSentError ? cause.message : `${cause.name}: ${cause.message}`;
}

/** The errors of `error`'s cause chain, at most four deep. */
function* causeChain(error: unknown): Generator<Error> {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    yield current;
    current = current.cause;
  }
}

function errorCode(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function errorNamed(error: unknown, names: ReadonlySet<string>): Error | undefined {
  for (const link of causeChain(error)) if (names.has(link.name) || names.has(link.constructor.name)) return link;
  return undefined;
}

/** The first error of `error`'s cause chain whose message matches `pattern`. */
function chainLink(error: unknown, pattern: RegExp): Error | undefined {
  for (const link of causeChain(error)) if (pattern.test(link.message)) return link;
  return undefined;
}

/** The message of the deepest error in the chain: the runtime's own words under a generic `fetch failed`. */
function innermostMessage(error: unknown): string {
  let message = 'unknown error';
  for (const link of causeChain(error)) message = link.message;
  return message;
}

/**
 * The service's base URL, for the client and for a transport alike. Aborts, so
 * a later rule (the client's https one) only ever reads a URL that parses.
 */
export const baseUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL', abort: true });

/** What `createFetchTransport` sends through: the global `fetch`'s signature, or one that is a subset of it. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

export interface FetchTransportOptions {
  /** The service's base URL, as the client's `baseUrl`: the transport sends each path under it. */
  baseUrl: string;
  /**
   * Sends every attempt instead of the global `fetch` (a Cloudflare service
   * binding's, an instrumented one). Called as a plain function: bind it first
   * (`(url, init) => env.PAYMENTS.fetch(url, init)`).
   */
  fetch?: FetchFunction | undefined;
}

export const fetchTransportOptionsSchema = z.strictObject({
  baseUrl: baseUrlSchema,
  fetch: z.optional(
    z.custom<FetchFunction>((value) => typeof value === 'function', 'must be a function taking (url, init) and resolving to a Response, as fetch does'),
  ),
});
