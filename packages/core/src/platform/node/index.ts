// The Node platform: undici transport with its TLS guard, OpenTelemetry loading.
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import type { TLSSocket } from 'node:tls';
import { type Dispatcher, Pool } from 'undici';
import { AttemptTimeoutError, CLIENT_REQUEST_ID_HEADER, type HttpMethod, MAX_RESPONSE_BYTES, RequestNotSentError, responseTooLarge, type Transport, type TransportOptions, type TransportResponse } from '../contract';
import type { OtelApi, Platform } from '../contract/platform';
import { nodeCrypto } from './crypto';

let loaded: OtelApi | null | undefined;

/**
 * `@opentelemetry/api`, or undefined when the app has not installed it (it is
 * an optional peer dependency). Required, not imported: a static import would
 * fail to load core without it, and a dynamic import() is asynchronous, so the
 * first calls would go untraced. Tried once per process.
 */
export function loadOtelApi(): OtelApi | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

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

export type { Dispatcher };

/**
 * One pooled, keep-alive undici dispatcher per client. Every connection it
 * opens refuses anything below TLS 1.2, whatever the runtime's default; through
 * a caller-supplied dispatcher, each request is checked by `watchTlsVersion`.
 */
export function createUndiciTransport(options: TransportOptions): Transport {
  const base = new URL(options.baseUrl);
  // Read once: URL's origin getter recomputes it on every read.
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const owned = options.dispatcher === undefined;
  // A dispatcher of the caller's keeps its own TLS settings: each request is checked at the socket instead.
  const checksTls = !owned && base.protocol === 'https:';
  const ca = options.ca as string | Buffer | Array<string | Buffer> | undefined;
  const dispatcher =
    (options.dispatcher as Dispatcher | undefined) ??
    // A Pool of the one origin, not an Agent: an Agent would look the same Pool up for every request.
    new Pool(origin, { keepAliveTimeout: 10_000, connect: { minVersion: 'TLSv1.2', ca } });

  return {
    send(method, path, headers, body, { timeoutMs, signal }) {
      return new Promise<TransportResponse>((resolve, reject) => {
        const onAbort = () => handler.abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted by the caller'));
        const handler = new EnvelopeResponseHandler(method, path, (error, response) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          unwatch?.();
          if (error === undefined) resolve(response!);
          else reject(error);
        });
        const unwatch = checksTls ? watchTlsVersion(headers, (error) => handler.abort(error)) : undefined;
        const timer = setTimeout(() => handler.abort(new AttemptTimeoutError(timeoutMs)), timeoutMs);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          dispatcher.dispatch({ origin, path: basePath + path, method, headers, body }, handler);
        } catch (error) {
          // dispatch() throws before it queues anything (a dispatcher without a working dispatch, a closed one).
          handler.abort(new RequestNotSentError(error));
        }
      });
    },
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}

/**
 * Collects a response body of at most MAX_RESPONSE_BYTES straight from the
 * dispatcher's callbacks. An envelope is a few hundred bytes read whole, so a
 * body stream and an AbortController per attempt would cost more than the rest
 * of the call; the time limit aborts through the dispatch controller instead.
 */
class EnvelopeResponseHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly method: HttpMethod,
    private readonly path: string,
    private readonly settle: (error: Error | undefined, response?: TransportResponse) => void,
  ) {}

  /** Ends the attempt from outside (time limit, caller's signal), whether or not it has started yet. */
  abort(reason: Error): void {
    if (this.settled) return;
    this.abortReason = reason;
    this.controller?.abort(reason);
    this.finish(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // 1xx answers are interim; the final status follows.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.byteLength;
    if (this.size > MAX_RESPONSE_BYTES) {
      const error = responseTooLarge(this.method, this.path);
      controller.abort(error);
      this.finish(error);
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const body = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.finish(undefined, { status: this.status, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | undefined, response?: TransportResponse): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(error, response);
  }
}

/** Node: node:crypto, undici with its TLS guard, `@opentelemetry/api` required when installed. */
export const nodePlatform: Platform = {
  name: 'node',
  crypto: nodeCrypto,
  createTransport: createUndiciTransport,
  loadOtelApi,
  isolatedMemory: () => undefined,
};
