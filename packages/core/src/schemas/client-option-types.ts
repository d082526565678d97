// The client's options as a merchant writes them and as the client holds them once checked, written out
// so that the published declarations name no zod; test/public-types.test-d.ts holds
// paymentClientOptionsSchema's input and output to them.
import type { Transport } from '../platform/contract';
import type { Dispatcher } from '../platform/node';
import type { LoggerOption } from '../shared/logger';
import type { PaymentTelemetry } from '../shared/types';

export interface Clock {
  now(): number;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. Injectable so tests need not sleep. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** How a call that failed on the way (network, 429, 5xx) is retried, with backoff. */
export type RetryOptions = {
  /** Attempts per call, the first included: a whole number from 1 to 10. Default 3. */
  maxAttempts?: number | undefined;
  /** The first backoff, in milliseconds: a whole number, 0 or more. Default 250. */
  baseDelayMs?: number | undefined;
  /** The longest backoff, in milliseconds: a whole number, 0 or more. Default 8000. */
  maxDelayMs?: number | undefined;
};

/** A PEM certificate as text or bytes (a Buffer from readFileSync). */
export type PemCertificate = string | Uint8Array;

/** The options of `createPaymentClient`. Unknown keys are refused, with the closest known one named. */
export type PaymentClientOptions = {
  /** The whole API key from the merchant portal, without whitespace. Never logged. */
  apiKey: string;
  /** The service's address: an absolute `https://` URL (plain `http://` only for a loopback sandbox with `localDevelopment: true`). */
  baseUrl: string;
  /** 1–32 characters; sent with every call unless the call names its own. */
  appId: string;
  /** 1–32 characters; sent with every call unless the call names its own. */
  merchantId: string;
  /** Per-attempt time-out, in milliseconds: a whole number greater than 0. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Deadline of a whole call, retries included, in milliseconds: a whole number greater than 0. Default 90 000. */
  deadlineMs?: number | undefined;
  /** Per-attempt time-out of a terminal sale, which waits for the card holder, in milliseconds. Default 120 000. */
  terminalTimeoutMs?: number | undefined;
  /** Retries of a call that failed on the way. Default 3 attempts, 250 ms to 8 s apart. */
  retry?: RetryOptions | undefined;
  /** An undici Dispatcher (Agent, Pool, ProxyAgent…) for the built-in transport. Node only; not with `transport`. */
  dispatcher?: Dispatcher | undefined;
  /** Extra trusted CA certificate(s), PEM, for the built-in transport. Node only; not with `transport`. */
  ca?: PemCertificate | PemCertificate[] | undefined;
  /** Your own transport, instead of the built-in one (undici on Node, fetch elsewhere). */
  transport?: Transport | undefined;
  /** A pino-compatible logger (debug, info, warn, error), or `false` to log nothing. Default: warnings and errors to the console. */
  logger?: LoggerOption | undefined;
  /** Spans and metrics of the client's calls; `false`: none. */
  telemetry?: PaymentTelemetry | undefined;
  /** Clock for timestamps and expiry; injectable for tests. */
  clock?: Clock | undefined;
  /** Makes the `transactionRequestId` of a call that has none. */
  generateId?: (() => string) | undefined;
  /** How the client waits between retries; injectable for tests. */
  sleep?: Sleep | undefined;
  /** Allows plain HTTP and non-public hosts in `baseUrl` and callback URLs, for a local sandbox. Default false. */
  localDevelopment?: boolean | undefined;
};

/** The client's options once checked, defaults applied. */
export type ResolvedPaymentClientOptions = Omit<
  PaymentClientOptions,
  'timeoutMs' | 'deadlineMs' | 'terminalTimeoutMs' | 'retry' | 'localDevelopment'
> & {
  timeoutMs: number;
  deadlineMs: number;
  terminalTimeoutMs: number;
  retry: Required<{ [K in keyof RetryOptions]: number }>;
  localDevelopment: boolean;
};
