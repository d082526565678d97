import { PaymentErrorCode } from '../error-codes';
import { PaymentNetworkError, PaymentResponseError } from '../errors';
import type { HttpMethod } from '../platform/types';

export type { HttpMethod, SendOptions, Transport, TransportOptions, TransportResponse } from '../platform/types';

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
