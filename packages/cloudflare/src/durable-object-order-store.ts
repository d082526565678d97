import type { OrderAttempt, OrderAttemptStore, OrderAttemptUpdate } from '@paymount/core';
import type { PaymountObjects } from './paymount-objects';

/**
 * An OrderAttemptStore on Durable Objects: each order's lock and attempt live
 * in the order's own object, so every call about one order is one RPC to one
 * single-threaded object and its check-and-set is atomic. Writes are also
 * copied to the unsettled index (a second RPC) so that `unsettled()` can list
 * attempts across orders; a write whose copy fails rejects, and reconciliation
 * may then miss that attempt until its next write.
 */
export class DurableObjectOrderAttemptStore implements OrderAttemptStore {
  constructor(private readonly objects: PaymountObjects) {}

  lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    return this.objects.order(referenceOrderId).orderLock(ttlMs);
  }

  unlock(referenceOrderId: string, token: string): Promise<void> {
    return this.objects.order(referenceOrderId).orderUnlock(token);
  }

  get(referenceOrderId: string): Promise<OrderAttempt | undefined> {
    return this.objects.order(referenceOrderId).orderGet();
  }

  async put(attempt: OrderAttempt, ttlMs: number): Promise<void> {
    const kept = await this.objects.order(attempt.referenceOrderId).orderPut(attempt, ttlMs);
    await this.objects.unsettledIndex().indexTrack(kept.attempt, kept.expiresAt);
  }

  async delete(referenceOrderId: string): Promise<void> {
    await this.objects.order(referenceOrderId).orderDelete();
    await this.objects.unsettledIndex().indexForget(referenceOrderId);
  }

  async settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean> {
    const kept = await this.objects.order(referenceOrderId).orderSettle(transactionRequestId, update, ttlMs);
    if (kept === undefined) return false;
    await this.objects.unsettledIndex().indexTrack(kept.attempt, kept.expiresAt);
    return true;
  }

  unsettled({ changedBefore, limit }: { changedBefore: number; limit: number }): Promise<OrderAttempt[]> {
    return this.objects.unsettledIndex().indexList(changedBefore, limit);
  }
}
