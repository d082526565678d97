import type { OrderGuardDeps } from './guard-deps';

/**
 * Runs `work` holding the order's lock, or resolves `whenHeld()` without
 * running it when another request holds the lock. The lock is freed
 * afterwards, best effort: one that cannot be freed expires with `lockTtlMs`.
 */
export async function underOrderLock<T>(
  deps: OrderGuardDeps,
  referenceOrderId: string,
  work: () => Promise<T>,
  whenHeld: () => T | Promise<T>,
): Promise<T> {
  const token = await deps.store.lock(referenceOrderId, deps.lockTtlMs);
  if (token === undefined) return whenHeld();
  try {
    return await work();
  } finally {
    await deps.store.unlock(referenceOrderId, token).catch((error: unknown) => {
      deps.logger.error({ referenceOrderId, err: error }, 'order attempt store: an order lock could not be freed; it lasts until lockTtlMs ends');
    });
  }
}
