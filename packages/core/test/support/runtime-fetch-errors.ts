/**
 * What each runtime's `fetch` rejected with, recorded by POSTing from Bun
 * 1.4.5, Deno 2.9.6 and workerd 1.20260426.1 (through Miniflare) to: a port
 * with nothing listening, a host name that does not resolve, port 6000 (on the
 * Fetch standard's blocked list), a server that resets the connection after
 * reading the request, and one that closes it without answering. Node's
 * undici fetch is exercised live by not-sent.test.ts; these are the runtimes
 * Node cannot host, rebuilt link by link (name, message, code, cause).
 */

/** An error as a runtime raised it: its class, message, `code` when it had one, and its `cause`. */
function raised(Class: ErrorConstructor | TypeErrorConstructor, message: string, extra: { code?: string; cause?: Error } = {}): Error {
  const error = new Class(message, extra.cause === undefined ? undefined : { cause: extra.cause });
  if (extra.code !== undefined) Object.assign(error, { code: extra.code });
  return error;
}

/** Deno wraps what hyper reported in `TypeError('fetch failed')`, the words on the cause only. */
const denoFetchFailed = (cause: string) => raised(TypeError, 'fetch failed', { cause: raised(Error, cause) });

export interface RecordedFailure {
  runtime: string;
  what: string;
  error: () => Error;
}

/** Nothing of the request left the process: the connection was never made. */
export const CONNECTION_NEVER_MADE: RecordedFailure[] = [
  {
    runtime: 'Deno 2.9',
    what: 'a port with nothing listening',
    error: () => denoFetchFailed('error sending request for url (http://127.0.0.1:46285/x): client error (Connect): tcp connect error: Connection refused (os error 111)'),
  },
  {
    runtime: 'Deno 2.9',
    what: 'a host name that does not resolve',
    error: () =>
      denoFetchFailed(
        'error sending request for url (http://no-such-host.invalid/x): client error (Connect): dns error: failed to lookup address information: Name or service not known',
      ),
  },
  {
    runtime: 'Bun 1.4',
    what: 'a port with nothing listening',
    error: () => raised(TypeError, 'ECONNREFUSED: Unable to connect. Is the computer able to access the url?', { code: 'ECONNREFUSED' }),
  },
  {
    runtime: 'Bun 1.4',
    what: 'a host name that does not resolve',
    error: () => raised(TypeError, 'getaddrinfo ENOTFOUND no-such-host.invalid', { code: 'ENOTFOUND' }),
  },
];

/** Deno refuses a blocked port itself, before connecting (Node's undici says `bad port`; Bun blocks none). */
export const DENO_BLOCKED_PORT: RecordedFailure = {
  runtime: 'Deno 2.9',
  what: 'port 6000, which the Fetch standard blocks',
  error: () => raised(TypeError, 'Fetch failed: Requests to port 6000 are blocked'),
};

/** The request went out, then the connection ended without an answer: the service may have acted on it. */
export const LOST_AFTER_SENDING: RecordedFailure[] = [
  { runtime: 'Deno 2.9', what: 'a reset after the request was read', error: () => denoFetchFailed('Connection reset by peer (os error 104)') },
  {
    runtime: 'Deno 2.9',
    what: 'a connection closed without an answer',
    error: () =>
      denoFetchFailed(
        'error sending request from 127.0.0.1:48452 for http://127.0.0.1:33557/x (127.0.0.1:33557): client error (SendRequest): connection closed before message completed',
      ),
  },
  {
    runtime: 'Bun 1.4',
    what: 'a reset after the request was read, or a connection closed without an answer',
    error: () =>
      raised(TypeError, 'ECONNRESET: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()', {
        code: 'ECONNRESET',
      }),
  },
  {
    // workerd words a refused connection, a reset and a hang-up alike, so it cannot say that nothing was sent.
    runtime: 'workerd 2026-04-26',
    what: 'a port with nothing listening, a reset, or a connection closed without an answer (all one error)',
    error: () => Object.assign(raised(Error, 'Network connection lost.'), { remote: true, retryable: true }),
  },
];
