// Web Crypto hashes and HMACs.
import { utf8Bytes } from '../../shared/bytes';
import type { PlatformCrypto } from '../contract';

/** Most HMAC keys kept imported at once: a few webhook secrets and the request-id key, with room for rotation. */
const MAX_CACHED_KEYS = 32;
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new Map<string, Promise<HmacKey>>();

/** One imported CryptoKey per secret, kept: importing costs more than the HMAC of a delivery. */
function hmacKey(secret: string): Promise<HmacKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', bytesOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // A key that failed to import is not kept, so the next call tries again.
    const imported = key;
    imported.catch(() => keys.get(secret) === imported && keys.delete(secret));
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

function bytesOf(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return (typeof data === 'string' ? utf8Bytes(data) : data) as Uint8Array<ArrayBuffer>;
}

/**
 * Web Crypto (crypto.subtle), which every runtime but Node's sync API offers:
 * Bun, Deno, workerd, the edge runtime, browsers, and Node itself.
 */
export const webCrypto: PlatformCrypto = {
  async hmacSha256(secret, data) {
    return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), bytesOf(data)));
  },
  async sha256(data) {
    return new Uint8Array(await crypto.subtle.digest('SHA-256', bytesOf(data)));
  },
};
