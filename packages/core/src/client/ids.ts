// globalThis.crypto: Web Crypto's randomUUID, on Node 20 and every runtime core runs on.

/** A transactionRequestId: 32 hex characters, the longest create-session takes (docs/service-contract.md#limits), matching `^[A-Za-z0-9_\-]+$`. */
export function generateTransactionRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** An X-Client-Request-Id: a UUID (36 characters, within the 64 allowed), fresh for every attempt. */
export function generateClientRequestId(): string {
  return crypto.randomUUID();
}
