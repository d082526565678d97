import { PaymentStoreUnavailableError } from '@paymount/core';

/** What a write answers when its commit was refused: the entry it read changed before it committed. */
export const CONFLICT = Symbol('conflict');

/**
 * A refused commit means another writer committed to the same key in
 * between, so the next read sees its write and decides on it; a key written
 * this often by others for this long is a fault, answered as one.
 */
const MAX_TRIES = 32;

/** Runs `write` (read, decide, commit checked against the read) until it answers something other than CONFLICT. */
export async function untilCommitted<T>(store: string, write: () => Promise<T | typeof CONFLICT>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const outcome = await write();
    if (outcome !== CONFLICT) return outcome;
    if (tries === MAX_TRIES) {
      throw new PaymentStoreUnavailableError(`The ${store} could not commit: ${MAX_TRIES} commits in a row were refused, other writers kept changing the same key`);
    }
  }
}

/** `operation`, with any failure of KV (closed, unreachable, over a limit) turned into PaymentStoreUnavailableError: the routes answer 503 and send nothing. */
export async function inStore<T>(store: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw PaymentStoreUnavailableError.from(error, store);
  }
}

/**
 * How long KV keeps an entry that lapses at `until`: expireIn is lazy (an
 * entry may be read after it), so every read checks `until` itself; expireIn
 * only lets KV drop what nobody reads again. At least 1 ms, as KV requires.
 */
export function expireInUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil(until - now));
}
