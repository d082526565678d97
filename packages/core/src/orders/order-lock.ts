import { PaymentErrorCode } from '../error-codes';
import type { Logger } from '../logger';
import { PaymentRouteError } from '../routes/route-error';
import type { OrderAttemptStore } from './store';

/** What the order guard works with, resolved once from the handler options. */
export interface OrderDeps {
  /** Already wrapped by checkedOrderStore. */
  store: OrderAttemptStore;
  lockTtlMs: number;
  attemptTtlMs: number;
  clock: { now(): number };
  logger: Logger;
}

/** A payment request for an order rarely takes longer than this; the browser may try again after it. */
export const PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

function paymentInProgress(): PaymentRouteError {
  return new PaymentRouteError(
    409,
    PaymentErrorCode.PAYMENT_IN_PROGRESS,
    'A payment of this order is being processed; nothing was sent. Retry shortly.',
    { retryAfterSeconds: PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS },
  );
}

/**
 * Runs `work` holding the order's lock, or resolves `whenHeld()` without
 * running it when another request holds the lock. The lock is freed
 * afterwards, best effort: one that cannot be freed expires with `lockTtlMs`.
 */
export async function underOrderLock<T>(
  deps: OrderDeps,
  referenceOrderId: string,
  work: () => Promise<T>,
  whenHeld: () => T | Promise<T> = () => {
    throw paymentInProgress();
  },
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
