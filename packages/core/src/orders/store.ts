import type { OrderAttempt, OrderAttemptUpdate } from '../types/order-attempt';

/**
 * Where the payment routes keep each order's current payment attempt, and
 * the per-order lock that lets one request at a time act on it. The default is
 * process-local (`MemoryOrderAttemptStore`); several app instances share one
 * (`RedisOrderAttemptStore` from `@paymount/redis`). Any method may reject
 * when the store cannot be reached: the routes then answer 503 and send
 * nothing.
 */
export interface OrderAttemptStore {
  /**
   * Atomically takes the order's lock for `ttlMs`: resolves a token to unlock
   * it with, or undefined when another request holds it.
   */
  lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined>;
  /** Frees the lock only while it still holds `token`, so a late unlock never frees a lock taken after ours expired. */
  unlock(referenceOrderId: string, token: string): Promise<void>;
  /** The order's current attempt, or undefined. */
  get(referenceOrderId: string): Promise<OrderAttempt | undefined>;
  /** Makes `attempt` the order's current one, kept for `ttlMs`. Called under the order's lock. */
  put(attempt: OrderAttempt, ttlMs: number): Promise<void>;
  /** Forgets the order's attempt. Called under the order's lock. */
  delete(referenceOrderId: string): Promise<void>;
  /**
   * Applies `update` atomically as `settledAttempt` does, only while the
   * attempt `transactionRequestId` is still the order's current one. Resolves
   * whether it applied. Called without the order's lock (by the webhook route),
   * so it must be atomic on its own.
   */
  settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean>;
  /** Unsettled attempts (see `isUnsettled`) last changed at or before `changedBefore`, oldest first, at most `limit`. */
  unsettled(options: { changedBefore: number; limit: number }): Promise<OrderAttempt[]>;
}
