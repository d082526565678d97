import { randomUUID } from 'node:crypto';
import { hmacSha256 } from './signature';

export interface SignWebhookOptions {
  /** A payload to serialise as JSON, or `rawBody` to sign exact bytes. */
  payload?: unknown;
  rawBody?: string | Uint8Array;
  secret: string;
  /** Epoch ms for X-Timestamp. Default `Date.now()`. */
  timestamp?: number;
  /** X-Client-Request-Id. Default a fresh UUID. */
  deliveryId?: string;
}

export interface SignedWebhook {
  body: string;
  headers: { 'content-type': string; 'x-signature': string; 'x-client-request-id': string; 'x-timestamp': string };
}

/**
 * Produces a delivery exactly as the service sends one (lowercase hex HMAC-SHA256
 * of the body), so merchants can test their webhook handlers end to end.
 */
export function signWebhook(options: SignWebhookOptions): SignedWebhook {
  const body =
    options.rawBody === undefined
      ? JSON.stringify(options.payload ?? {})
      : typeof options.rawBody === 'string'
        ? options.rawBody
        : Buffer.from(options.rawBody).toString('utf8');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-signature': hmacSha256(options.secret, Buffer.from(body, 'utf8')).toString('hex'),
      'x-client-request-id': options.deliveryId ?? randomUUID(),
      'x-timestamp': String(options.timestamp ?? Date.now()),
    },
  };
}
