import { BoundedExpiringMap } from '../bounded-expiring-map';
import { isUnsettled, settledAttempt } from './attempt';
import type { OrderAttempt, OrderAttemptUpdate } from '../types/order-attempt';
import type { OrderAttemptStore } from './store';

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
