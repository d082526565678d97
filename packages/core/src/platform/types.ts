/*
 * What differs between the runtimes core runs on, behind interfaces small
 * enough to implement twice: `node/` (node:crypto, undici) and `web/` (Web
 * Crypto, fetch). The build picks one through package.json's export conditions
 * (see current.ts); nothing else in core knows which it got.
 */
import type { OtelApi } from '../telemetry/otel-api';

/**
 * HMAC-SHA256 and SHA-256 over bytes (a string is its UTF-8 bytes: node:crypto
 * hashes it without a copy).
 */
export interface PlatformCrypto {
  hmacSha256(secret: string, data: string | Uint8Array): Promise<Uint8Array>;
  sha256(data: string | Uint8Array): Promise<Uint8Array>;
  /**
   * The same HMAC as lowercase hex, without a promise, where the runtime
   * computes it synchronously (node:crypto): `signWebhook`'s sync form needs
   * it, and the verifier uses it so that a delivery on Node costs no promise
   * per secret. Hex, because node:crypto writes it natively where a digest
   * as bytes costs a buffer (about 0.5 µs a delivery, bench: webhook-verify).
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

export interface Platform {
  /** `node`: node:crypto and undici. `web`: Web Crypto and fetch (Bun, Deno, workerd, edge, browsers). */
  readonly name: 'node' | 'web';
  readonly crypto: PlatformCrypto;
  createTransport(options: TransportOptions): Transport;
  /** `@opentelemetry/api` when the platform can load it by itself and it is installed. */
  loadOtelApi(): OtelApi | undefined;
  /**
   * Why memory kept by one request may not be there for the next (a new
   * isolate per request), naming the runtime; undefined where one process
   * serves every request.
   */
  isolatedMemory(): string | undefined;
}
