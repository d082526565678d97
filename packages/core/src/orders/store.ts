// An order attempt's state rules, the attempt store interface, its checked calls and the in-memory store.
import { BoundedExpiringMap } from '../shared/bounded-expiring-map';
import { PaymentStoreUnavailableError } from '../shared/errors';
import { type FinalOrderAttemptState, type OrderAttempt, type OrderAttemptState, type OrderAttemptUpdate } from '../shared/types';

/** Final: the service will not change it any more. */
export function isFinalState(state: OrderAttemptState): state is FinalOrderAttemptState {
  return state === 'succeeded' || state === 'failed' || state === 'closed';
}

/** Not final, or final but its outcome not yet handed to the merchant's handlers: what reconciliation looks at. */
export function isUnsettled(attempt: OrderAttempt): boolean {
  return attempt.handledState !== attempt.state;
}

/**
 * `update` applied to `current`, or undefined when it must not apply: a
 * success is never undone by a later (or late-arriving) outcome.
 */
export function settledAttempt(current: OrderAttempt, update: OrderAttemptUpdate): OrderAttempt | undefined {
  if (current.state === 'succeeded' && update.state !== 'succeeded') return undefined;
  const settled: OrderAttempt = { ...current, state: update.state, updatedAt: update.updatedAt };
  if (update.transactionId !== undefined) settled.transactionId = update.transactionId;
  if (update.handled && isFinalState(update.state)) settled.handledState = update.state;
  return settled;
}

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

const STORE = 'order attempt store';

async function checked<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw PaymentStoreUnavailableError.from(error, STORE);
  }
}

/**
 * The merchant's store with every failure turned into
 * PaymentStoreUnavailableError, so that a broken or unreachable store is
 * answered 503 (nothing sent) whatever a custom store throws.
 */
export function checkedOrderStore(store: OrderAttemptStore): OrderAttemptStore {
  return {
    lock: (referenceOrderId, ttlMs) => checked(() => store.lock(referenceOrderId, ttlMs)),
    unlock: (referenceOrderId, token) => checked(() => store.unlock(referenceOrderId, token)),
    get: (referenceOrderId) => checked(() => store.get(referenceOrderId)),
    put: (attempt, ttlMs) => checked(() => store.put(attempt, ttlMs)),
    delete: (referenceOrderId) => checked(() => store.delete(referenceOrderId)),
    settle: (referenceOrderId, transactionRequestId, update, ttlMs) =>
      checked(() => store.settle(referenceOrderId, transactionRequestId, update, ttlMs)),
    unsettled: (options) => checked(() => store.unsettled(options)),
  };
}

export interface MemoryOrderAttemptStoreOptions {
  /** Most orders whose attempt (and, separately, whose lock) is held at once. Default 10 000. */
  maxOrders?: number;
  /** Clock for expiry; injectable for tests. */
  clock?: { now(): number };
}

export const DEFAULT_MEMORY_ORDER_STORE_MAX_ORDERS = 10_000;

/**
 * A process-local OrderAttemptStore: one app instance only. Bounded: past
 * `maxOrders`, expired entries are swept and then the least recently written
 * order is forgotten; a forgotten order is protected only by what
 * `resolveOrder` says (its `payable`), so size it above the orders paid within
 * the attempt TTL.
 */
export class MemoryOrderAttemptStore implements OrderAttemptStore {
  private readonly clock: { now(): number };
  private readonly locks: BoundedExpiringMap<string>;
  private readonly attempts: BoundedExpiringMap<OrderAttempt>;

  constructor(options: MemoryOrderAttemptStoreOptions = {}) {
    const maxOrders = options.maxOrders ?? DEFAULT_MEMORY_ORDER_STORE_MAX_ORDERS;
    this.locks = new BoundedExpiringMap(maxOrders, 'MemoryOrderAttemptStore: maxOrders');
    this.attempts = new BoundedExpiringMap(maxOrders, 'MemoryOrderAttemptStore: maxOrders');
    this.clock = options.clock ?? Date;
  }

  get size(): number {
    return this.attempts.size;
  }

  async lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    const now = this.clock.now();
    if (this.locks.get(referenceOrderId, now) !== undefined) return undefined;
    const token = crypto.randomUUID();
    this.locks.set(referenceOrderId, token, now + ttlMs, now);
    return token;
  }

  async unlock(referenceOrderId: string, token: string): Promise<void> {
    if (this.locks.get(referenceOrderId, this.clock.now()) === token) this.locks.delete(referenceOrderId);
  }

  async get(referenceOrderId: string): Promise<OrderAttempt | undefined> {
    const attempt = this.attempts.get(referenceOrderId, this.clock.now());
    return attempt && { ...attempt };
  }

  async put(attempt: OrderAttempt, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    this.attempts.set(attempt.referenceOrderId, { ...attempt }, now + ttlMs, now);
  }

  async delete(referenceOrderId: string): Promise<void> {
    this.attempts.delete(referenceOrderId);
  }

  async settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean> {
    const current = await this.get(referenceOrderId);
    const settled = current?.transactionRequestId === transactionRequestId ? settledAttempt(current, update) : undefined;
    if (settled === undefined) return false;
    await this.put(settled, ttlMs);
    return true;
  }

  async unsettled({ changedBefore, limit }: { changedBefore: number; limit: number }): Promise<OrderAttempt[]> {
    const found: OrderAttempt[] = [];
    for (const [, attempt] of this.attempts.live(this.clock.now())) {
      if (isUnsettled(attempt) && attempt.updatedAt <= changedBefore) found.push({ ...attempt });
    }
    return found.sort((a, b) => a.updatedAt - b.updatedAt).slice(0, limit);
  }
}
