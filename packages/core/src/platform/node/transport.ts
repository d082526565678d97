import { Pool, type Dispatcher } from 'undici';
import { AttemptTimeoutError, MAX_RESPONSE_BYTES, RequestNotSentError, responseTooLarge } from '../../client/transport';
import type { HttpMethod, Transport, TransportOptions, TransportResponse } from '../types';
import { watchTlsVersion } from './tls-guard';

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
    new Pool(origin, { keepAliveTimeout: 10_000, connect: { minVersion: 'TLSv1.2', ...(ca === undefined ? {} : { ca }) } });

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
