import { subscribe } from 'node:diagnostics_channel';
import type { TLSSocket } from 'node:tls';
import { CLIENT_REQUEST_ID_HEADER } from '../../client/auth-headers';

/**
 * The TLS 1.2 minimum on connections paymount does not open itself: those of
 * a caller-supplied dispatcher, whose TLS settings are the caller's. undici
 * (any copy of it in the process: channels are global by name) publishes every
 * request's headers with the socket they are about to be written to, just
 * before writing them. A watched request on a socket that negotiated anything
 * below TLS 1.2 is aborted there, so not a byte of it is sent. Requests are
 * known by their X-Client-Request-Id, unique per attempt.
 */
const SEND_HEADERS_CHANNEL = 'undici:client:sendHeaders';
const ACCEPTED_PROTOCOLS = new Set(['TLSv1.2', 'TLSv1.3']);
const REQUEST_ID_LINE = new RegExp(`^${CLIENT_REQUEST_ID_HEADER}: *([^\\r\\n]+)`, 'im');

const watched = new Map<string, (error: Error) => void>();
let subscribed = false;

/** The connection of a watched request offered less than TLS 1.2; mapped to TLS_ERROR, not retried. */
export class TlsVersionError extends Error {
  readonly code = 'ERR_TLS_PROTOCOL_VERSION_BELOW_MINIMUM';

  constructor(protocol: string | null | undefined) {
    super(`the connection negotiated ${protocol ?? 'no TLS'}; TLS 1.2 or higher is required`);
    this.name = 'TlsVersionError';
  }
}

function onSendHeaders(message: unknown): void {
  if (watched.size === 0) return;
  const { headers, socket } = message as { headers?: unknown; socket?: Partial<TLSSocket> };
  const requestId = typeof headers === 'string' ? REQUEST_ID_LINE.exec(headers)?.[1] : undefined;
  const abort = requestId === undefined ? undefined : watched.get(requestId);
  if (abort === undefined) return;
  const protocol = socket?.getProtocol?.();
  if (protocol === undefined || protocol === null || !ACCEPTED_PROTOCOLS.has(protocol)) abort(new TlsVersionError(protocol));
}

/**
 * Watches the request whose headers are `headers` until the returned function
 * is called: should its connection be below TLS 1.2, `abort` runs before any
 * of it is written.
 */
export function watchTlsVersion(headers: Readonly<Record<string, string>>, abort: (error: Error) => void): () => void {
  const requestId = headers[CLIENT_REQUEST_ID_HEADER];
  if (requestId === undefined) throw new TypeError(`a watched request needs its ${CLIENT_REQUEST_ID_HEADER} header`);
  if (!subscribed) {
    subscribe(SEND_HEADERS_CHANNEL, onSendHeaders);
    subscribed = true;
  }
  watched.set(requestId, abort);
  return () => void watched.delete(requestId);
}
