import { PaymentStoreUnavailableError } from '../errors';
import type { Logger } from '../logger';
import type { IdempotencyKeyState, IdempotencyStore } from './store';

// The store's own words name what broke (refused, timed out); routes answer a fixed message instead.
const unavailable = (error: unknown) => PaymentStoreUnavailableError.from(error, 'idempotency store');

/**
 * Claims `key`; true when this caller now holds it. A store failure is a
 * PaymentStoreUnavailableError: nothing may be processed without the claim.
 */
export async function claimKey(store: IdempotencyStore, key: string, ttlMs: number): Promise<boolean> {
  try {
    return await store.claim(key, ttlMs);
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * Frees a claimed key, best effort. Never throws: the answer to the sender is
 * already decided by then. A key that could not be freed stays claimed until
 * its claim TTL ends, so it is logged as an error.
 */
export async function releaseKey(store: IdempotencyStore, key: string, logger: Logger): Promise<void> {
  await store.release(key).catch((error: unknown) => {
    logger.error({ key, err: error }, 'idempotency store: a claim could not be released; it lasts until its TTL ends');
  });
}

/** Marks a claimed key done, best effort: the work is done, so a failure here only shortens how long the key is remembered. */
export async function completeKey(store: IdempotencyStore, key: string, ttlMs: number, logger: Logger): Promise<void> {
  await store.complete(key, ttlMs).catch((error: unknown) => {
    logger.warn({ key, err: error }, 'idempotency store: a handled key could not be marked done; its claim TTL applies');
  });
}

/** What holds a key this delivery could not claim. */
export async function holderStateOf(store: IdempotencyStore, key: string): Promise<IdempotencyKeyState | undefined> {
  try {
    return await store.state(key);
  } catch (error) {
    throw unavailable(error);
  }
}
