import type { OrderGuardDeps } from './guard-deps';

/**
 * The service takes a request whose X-Timestamp is within ±10 minutes of its
 * own clock (docs/service-contract.md#authentication). The last attempt of a
 * call is stamped before its deadline; with the two clocks up to 10 minutes
 * apart, the service may receive it until 20 minutes after that.
 */
export const SERVICE_TIMESTAMP_REACH_MS = 20 * 60_000;

/** How long after a call starts its request may still reach the service: its deadline, then the timestamp's reach. */
export function lateArrivalMs(deadlineMs: number): number {
  return deadlineMs + SERVICE_TIMESTAMP_REACH_MS;
}

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
