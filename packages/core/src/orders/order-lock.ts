import { PaymentErrorCode } from '../error-codes';
import type { Logger } from '../logger';
import { PaymentRouteError } from '../routes/route-error';
import type { RequestIdSource } from './request-ids';
import type { OrderAttemptStore } from './store';

/** What the order guard works with, resolved once from the handler options. */
export interface OrderDeps {
  /** Already wrapped by checkedOrderStore. */
  store: OrderAttemptStore;
  lockTtlMs: number;
  attemptTtlMs: number;
  clock: { now(): number };
  logger: Logger;
  /** Each order's transactionRequestIds. */
  requestIds: RequestIdSource;
  /** How long after a payment call starts the service may still receive it (see lateArrivalMs). */
  lateArrivalMs: number;
}

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
