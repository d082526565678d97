import type { OrderAttempt, OrderAttemptUpdate } from '@paymount/core';
import { settledAttempt } from '@paymount/core/stores';
import type { ExpiringEntries } from './expiring-entries';

/** An attempt as kept, with the deadline the object gave it (the unsettled-orders index keeps the same one). */
export interface KeptAttempt {
  attempt: OrderAttempt;
  expiresAt: number;
}

const LOCK = 'order-lock';
const ATTEMPT = 'order-attempt';

/** One order's lock and current attempt, in the order's own object: each function is one atomic step there. */
export const orderState = {
  lock(entries: ExpiringEntries, now: number, ttlMs: number): string | undefined {
    if (entries.read(LOCK, now) !== undefined) return undefined;
    const token = crypto.randomUUID();
    entries.write(LOCK, token, now + ttlMs);
    return token;
  },

  unlock(entries: ExpiringEntries, now: number, token: string): void {
    if (entries.read(LOCK, now)?.value === token) entries.delete(LOCK);
  },

  get(entries: ExpiringEntries, now: number): OrderAttempt | undefined {
    const row = entries.read(ATTEMPT, now);
    return row === undefined ? undefined : (JSON.parse(row.value) as OrderAttempt);
  },

  put(entries: ExpiringEntries, now: number, attempt: OrderAttempt, ttlMs: number): KeptAttempt {
    const expiresAt = now + ttlMs;
    entries.write(ATTEMPT, JSON.stringify(attempt), expiresAt);
    return { attempt, expiresAt };
  },

  delete(entries: ExpiringEntries): void {
    entries.delete(ATTEMPT);
  },

  /** The settled attempt as kept, or undefined when `transactionRequestId` is not current or the update must not apply. */
  settle(entries: ExpiringEntries, now: number, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): KeptAttempt | undefined {
    const current = orderState.get(entries, now);
    const settled = current?.transactionRequestId === transactionRequestId ? settledAttempt(current, update) : undefined;
    return settled === undefined ? undefined : orderState.put(entries, now, settled, ttlMs);
  },
};
