// Imported by Node (the postgres-stores figure) and by Deno (subjects/deno-kv-cycles.mjs): type imports only, so
// Deno runs it without resolving anything.
import type { IdempotencyStore, OrderAttempt, OrderAttemptStore } from '@paymount/core';

/** Every lock, attempt and claim of a cycle lasts this long: past any measuring window. */
export const TTL_MS = 60_000;

/** The stores a cycle goes through: a store with runHandled, as the routes use one. */
export interface CycleStores {
  orders: OrderAttemptStore;
  idempotency: Pick<IdempotencyStore, 'claim'> & Required<Pick<IdempotencyStore, 'runHandled'>>;
}

/** The attempt a cycle records in flight for order `key`, before its outcome. */
export function sentAttempt(key: string): OrderAttempt & { state: 'pending' } {
  return { referenceOrderId: key, kind: 'wallet', transactionRequestId: `tr-${key}`, sequence: 0, state: 'pending', amount: 1_000, currency: 'USD', inFlightUntil: 2, updatedAt: 1 };
}

/**
 * A paid order's store traffic, then its webhook event's: lock, read, record
 * the attempt in flight, record its outcome, settle it handled, unlock; claim
 * the event and mark it handled (handlers writing nothing: the mark alone).
 */
export async function storeCycle({ orders, idempotency }: CycleStores, key: string): Promise<void> {
  const token = await orders.lock(key, TTL_MS);
  if (token === undefined) throw new Error(`order ${key} was locked already`);
  await orders.get(key);
  const sent = sentAttempt(key);
  await orders.put(sent, TTL_MS);
  await orders.put({ ...sent, state: 'succeeded', transactionId: `tx-${key}`, updatedAt: 2 }, TTL_MS);
  await orders.settle(key, sent.transactionRequestId, { state: 'succeeded', handled: true, updatedAt: 3 }, TTL_MS);
  await orders.unlock(key, token);
  if (!(await idempotency.claim(`event-${key}`, TTL_MS))) throw new Error(`event of order ${key} was claimed already`);
  await idempotency.runHandled(`event-${key}`, TTL_MS, async () => undefined);
}
