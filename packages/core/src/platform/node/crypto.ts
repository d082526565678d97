// Node:crypto hashes and HMACs.
import { createHash, createHmac } from 'node:crypto';
import type { PlatformCrypto } from '../contract';

const hmac = (secret: string, data: string | Uint8Array) => createHmac('sha256', secret).update(data);

/** node:crypto: every digest is computed synchronously, so the async forms are already-settled promises. */
export const nodeCrypto: PlatformCrypto = {
  hmacSha256: async (secret, data) => hmac(secret, data).digest(),
  sha256: async (data) => createHash('sha256').update(data).digest(),
  hmacSha256HexSync: (secret, data) => hmac(secret, data).digest('hex'),
};
