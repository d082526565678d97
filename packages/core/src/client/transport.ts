import { Agent, type Dispatcher } from 'undici';
import { PaymentNetworkError, PaymentResponseError } from '../errors';

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Transport {
  post(path: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  baseUrl: string;
  /** A caller-owned dispatcher; its TLS settings are then the caller's to keep at 1.2 or higher. */
  dispatcher?: Dispatcher | undefined;
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

/** Bodies larger than this are not a response envelope; reading stops rather than filling memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * One pooled, keep-alive dispatcher per client. Every connection it opens
 * refuses anything below TLS 1.2, whatever the runtime's default.
 */
export function createTransport(options: TransportOptions): Transport {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const owned = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      keepAliveTimeout: 10_000,
      connect: { minVersion: 'TLSv1.2', ...(options.ca === undefined ? {} : { ca: options.ca }) },
    });

  return {
    async post(path, headers, body, signal) {
      const response = await dispatcher.request({ origin: base.origin, path: basePath + path, method: 'POST', headers, body, signal });
      return { status: response.statusCode, headers: response.headers, body: await readCapped(response.body, path) };
    },
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy();
      throw new PaymentResponseError(`POST ${path} answered with a body over ${MAX_RESPONSE_BYTES} bytes; not a response envelope`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
export function classifyNetworkError(cause: unknown, path: string): ClassifiedNetworkError {
  const code = errorCode(cause);
  const detail = code ?? (cause instanceof Error ? cause.message : 'unknown error');
  if (code !== undefined && TLS_FAILURE.test(code)) {
    return {
      error: new PaymentNetworkError(
        `TLS connection for POST ${path} refused (${code}): the service must offer TLS 1.2 or higher with a trusted certificate`,
        { code: 'TLS_ERROR', cause },
      ),
      retryable: false,
    };
  }
  const sent = code === undefined || !NOT_SENT.has(code);
  return {
    error: new PaymentNetworkError(
      sent
        ? `Connection lost during POST ${path} (${detail}); the request may have been processed`
        : `Could not connect for POST ${path} (${detail})`,
      { outcomeUnknown: sent, cause },
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
