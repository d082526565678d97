import { hexOf, utf8Text } from '../bytes';
import { platformCrypto } from '../platform/current-verifier';

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

function bodyOf(options: SignWebhookOptions): string {
  if (options.rawBody === undefined) return JSON.stringify(options.payload ?? {});
  return typeof options.rawBody === 'string' ? options.rawBody : utf8Text(options.rawBody);
}

function signed(options: SignWebhookOptions, body: string, signature: string): SignedWebhook {
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-signature': signature,
      'x-client-request-id': options.deliveryId ?? crypto.randomUUID(),
      'x-timestamp': String(options.timestamp ?? Date.now()),
    },
  };
}

/**
 * Produces a delivery exactly as the service sends one (lowercase hex HMAC-SHA256
 * of the body), so merchants can test their webhook handlers end to end. Works
 * on every runtime.
 */
export async function signWebhookAsync(options: SignWebhookOptions): Promise<SignedWebhook> {
  const body = bodyOf(options);
  return signed(options, body, hexOf(await platformCrypto.hmacSha256(options.secret, body)));
}

/**
 * `signWebhookAsync` without the promise, for Node (node:crypto hashes
 * synchronously). Web Crypto has no synchronous HMAC, so on Bun, Deno,
 * workerd and the edge runtime this throws: use `signWebhookAsync` there.
 */
export function signWebhook(options: SignWebhookOptions): SignedWebhook {
  const { hmacSha256HexSync } = platformCrypto;
  if (hmacSha256HexSync === undefined) {
    throw new TypeError('signWebhook() needs synchronous node:crypto, which this runtime lacks: use `await signWebhookAsync(options)` instead.');
  }
  const body = bodyOf(options);
  return signed(options, body, hmacSha256HexSync(options.secret, body));
}
