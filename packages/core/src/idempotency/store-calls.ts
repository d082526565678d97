import { PaymentStoreUnavailableError } from '../errors';
import type { Logger } from '../logger';
import type { IdempotencyKeyState, IdempotencyStore } from './store';

function unavailable(error: unknown): PaymentStoreUnavailableError {
  if (error instanceof PaymentStoreUnavailableError) return error;
  // The store's own words name what broke (refused, timed out); routes answer a fixed message instead.
  const reason = error instanceof Error ? error.message : String(error);
  return new PaymentStoreUnavailableError(`The idempotency store could not be used: ${reason}`, { cause: error });
}

/**
 * Frees claimed keys, best effort. Never throws: the answer to the sender is
 * already decided by then. A key that could not be freed stays claimed until
 * its claim TTL ends, so it is logged as an error.
 */
export async function releaseKeys(store: IdempotencyStore, keys: readonly string[], logger: Logger): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      store.release(key).catch((error: unknown) => {
        logger.error({ key, err: error }, 'idempotency store: a claim could not be released; it lasts until its TTL ends');
      }),
    ),
  );
}

/** Marks claimed keys done, best effort: the work is done, so a failure here only shortens how long the keys are remembered. */
export async function completeKeys(
  store: IdempotencyStore,
  keys: readonly string[],
  ttlMs: number,
  logger: Logger,
): Promise<void> {
  const complete = store.complete?.bind(store);
  if (!complete) return;
  await Promise.all(
    keys.map((key) =>
      complete(key, ttlMs).catch((error: unknown) => {
        logger.warn({ key, err: error }, 'idempotency store: a handled key could not be marked done; its claim TTL applies');
      }),
    ),
  );
}

/**
 * Claims `keys` in order, stopping at the first one already taken, and
 * returns the keys claimed. If the store fails part-way, what was claimed is
 * released and a PaymentStoreUnavailableError is thrown: nothing may be
 * processed without every claim.
 */
export async function claimKeys(
  store: IdempotencyStore,
  keys: readonly string[],
  ttlMs: number,
  logger: Logger,
): Promise<string[]> {
  const claimed: string[] = [];
  try {
    for (const key of keys) {
      if (!(await store.claim(key, ttlMs))) break;
      claimed.push(key);
    }
  } catch (error) {
    await releaseKeys(store, claimed, logger);
    throw unavailable(error);
  }
  return claimed;
}

/**
 * What holds a key this delivery could not claim. A store that cannot tell
 * (no `state`, or no `complete` to mark keys done) is taken to hold it done:
 * the duplicate answer paymount gave before stores could tell.
 */
export async function holderStateOf(store: IdempotencyStore, key: string): Promise<IdempotencyKeyState | undefined> {
  if (!store.state || !store.complete) return 'done';
  try {
    return await store.state(key);
  } catch (error) {
    throw unavailable(error);
  }
}
