import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { PlatformCrypto } from '../types';

const hmacSha256Sync = (secret: string, data: string | Uint8Array): Uint8Array => createHmac('sha256', secret).update(data).digest();

/** node:crypto: every digest is computed synchronously, so the async forms are already-settled promises. */
export const nodeCrypto: PlatformCrypto = {
  hmacSha256: async (secret, data) => hmacSha256Sync(secret, data),
  sha256: async (data) => createHash('sha256').update(data).digest(),
  timingSafeEqual: (a, b) => timingSafeEqual(a, b),
  hmacSha256Sync,
};
