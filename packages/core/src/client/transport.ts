import { PaymentErrorCode } from '../error-codes';
import { Agent, type Dispatcher } from 'undici';
import { PaymentNetworkError, PaymentResponseError } from '../errors';
import { watchTlsVersion } from './tls-guard';

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The methods the service's endpoints take: POST with a JSON body, GET (the transaction query) without one. */
export type HttpMethod = 'POST' | 'GET';

export interface SendOptions {
  /** This attempt's own limit; past it the request is aborted and `send` rejects with AttemptTimeoutError. */
  timeoutMs: number;
  /** The caller's signal; aborting it aborts the request. */
  signal?: AbortSignal | undefined;
}

export interface Transport {
  /** One attempt; `body` is undefined for a GET. */
  send(
    method: HttpMethod,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: SendOptions,
  ): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  baseUrl: string;
  /** A caller-owned dispatcher; a request on one of its connections below TLS 1.2 is aborted before it is sent. */
  dispatcher?: Dispatcher | undefined;
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

/** Bodies larger than this are not a response envelope; reading stops rather than filling memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** An attempt got no complete answer within its time limit; whether the service acted on it is unknown. */
export class AttemptTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeoutError';
  }
}

/**
 * One pooled, keep-alive dispatcher per client. Every connection it opens
 * refuses anything below TLS 1.2, whatever the runtime's default; through a
 * caller-supplied dispatcher, each request is checked by `watchTlsVersion`.
 */
export function createTransport(options: TransportOptions): Transport {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const owned = options.dispatcher === undefined;
  // A dispatcher of the caller's keeps its own TLS settings: each request is checked at the socket instead.
  const checksTls = !owned && base.protocol === 'https:';
  const dispatcher =
    options.dispatcher ??
    new Agent({
      keepAliveTimeout: 10_000,
      connect: { minVersion: 'TLSv1.2', ...(options.ca === undefined ? {} : { ca: options.ca }) },
    });

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
          dispatcher.dispatch({ origin: base.origin, path: basePath + path, method, headers, body }, handler);
        } catch (error) {
          handler.abort(error instanceof Error ? error : new Error(String(error)));
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
      const error = new PaymentResponseError(`${this.method} ${this.path} answered with a body over ${MAX_RESPONSE_BYTES} bytes; not a response envelope`);
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

/** Connection-level failures before anything was sent: the request cannot have been processed. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** TLS and certificate failures: retrying cannot help, and nothing was sent. */
const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

export interface ClassifiedNetworkError {
  error: PaymentNetworkError;
  retryable: boolean;
}

/** Maps a socket, DNS or TLS error to a PaymentNetworkError saying whether the request may have reached the service. */
export function classifyNetworkError(cause: unknown, method: HttpMethod, path: string): ClassifiedNetworkError {
  const code = errorCode(cause);
  const detail = code ?? (cause instanceof Error ? cause.message : 'unknown error');
  if (code !== undefined && TLS_FAILURE.test(code)) {
    return {
      error: new PaymentNetworkError(
        `TLS connection for ${method} ${path} refused (${code}): the service must offer TLS 1.2 or higher with a trusted certificate`,
        { code: PaymentErrorCode.TLS_ERROR, cause },
      ),
      retryable: false,
    };
  }
  const sent = code === undefined || !NOT_SENT.has(code);
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

function errorCode(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}
