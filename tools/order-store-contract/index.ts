import type { OrderAttempt, OrderAttemptStore } from '@paymount/core';
import { describe, expect, it } from 'vitest';
import { freshKeys, sleep } from '../store-contract-runtime';

/**
 * What every OrderAttemptStore must do, run against each implementation (the
 * memory store in core, the Redis store). `create()` gives a fresh, empty
 * store; `stores(n)` gives `n` stores sharing one state through separate
 * connections where the implementation has them (the same store otherwise).
 * Expiry is real time: TTLs here are tens of milliseconds.
 */
export interface OrderStoreTarget {
  create(): Promise<OrderAttemptStore>;
  stores(count: number): Promise<OrderAttemptStore[]>;
}

const orderId = freshKeys();

function attempt(referenceOrderId: string, overrides: Partial<OrderAttempt> = {}): OrderAttempt {
  return { referenceOrderId, kind: 'wallet', transactionRequestId: `req-${referenceOrderId}`, state: 'pending', updatedAt: 1_000, ...overrides };
}

const HOUR = 3_600_000;

export function describeOrderAttemptStoreContract(name: string, target: OrderStoreTarget): void {
  describe(`${name}: OrderAttemptStore contract`, () => {
    it('lock(): exactly one of many concurrent lockers wins; unlock() with its token frees it, another token does not', async () => {
      const stores = await target.stores(10);
      const id = orderId();
      const tokens = await Promise.all(stores.map((store) => store.lock(id, HOUR)));
      const won = tokens.filter((token): token is string => token !== undefined);
      expect(won).toHaveLength(1);
      const [store] = stores as [OrderAttemptStore];
      await store.unlock(id, 'not-the-token');
      expect(await store.lock(id, HOUR)).toBeUndefined();
      await store.unlock(id, won[0] as string);
      expect(await store.lock(id, HOUR)).toEqual(expect.any(String));
    });

    it('a lock frees itself after its TTL, and a late unlock then leaves the new holder alone', async () => {
      const store = await target.create();
      const id = orderId();
      const first = await store.lock(id, 30);
      expect(first).toBeDefined();
      await sleep(80);
      const second = await store.lock(id, HOUR);
      expect(second).toBeDefined();
      await store.unlock(id, first as string);
      expect(await store.lock(id, HOUR)).toBeUndefined();
    });

    it('put() then get() gives the attempt back field for field; put() replaces the whole attempt', async () => {
      const store = await target.create();
      const id = orderId();
      expect(await store.get(id)).toBeUndefined();
      const hosted = attempt(id, {
        kind: 'hosted',
        state: 'open',
        sequence: 3,
        amount: 1250,
        currency: 'USD',
        inFlightUntil: 1_201_234,
        sessionId: 'cs_1',
        checkoutUrl: 'https://pay.example/hosted/cs_1',
        expiresAt: 1_800_000,
        updatedAt: 1_234,
      });
      await store.put(hosted, HOUR);
      expect(await store.get(id)).toEqual(hosted);
      const wallet = attempt(id, { transactionRequestId: 'req-2', state: 'succeeded', transactionId: 'txn_2', handledState: 'succeeded' });
      await store.put(wallet, HOUR);
      expect(await store.get(id)).toEqual(wallet);
      await store.delete(id);
      expect(await store.get(id)).toBeUndefined();
    });

    it('an attempt is forgotten after its TTL', async () => {
      const store = await target.create();
      const id = orderId();
      await store.put(attempt(id), 30);
      await sleep(80);
      expect(await store.get(id)).toBeUndefined();
    });

    it('settle() applies only to the current attempt, never undoes a success, and marks the handled state', async () => {
      const store = await target.create();
      const id = orderId();
      await store.put(attempt(id), HOUR);
      expect(await store.settle(id, 'another-request', { state: 'failed', updatedAt: 2_000 }, HOUR)).toBe(false);
      expect(await store.get(id)).toEqual(attempt(id));
      expect(await store.settle(id, `req-${id}`, { state: 'succeeded', transactionId: 'txn_9', updatedAt: 2_000 }, HOUR)).toBe(true);
      expect(await store.get(id)).toEqual(attempt(id, { state: 'succeeded', transactionId: 'txn_9', updatedAt: 2_000 }));
      expect(await store.settle(id, `req-${id}`, { state: 'closed', handled: true, updatedAt: 3_000 }, HOUR)).toBe(false);
      expect(await store.settle(id, `req-${id}`, { state: 'succeeded', handled: true, updatedAt: 4_000 }, HOUR)).toBe(true);
      expect(await store.get(id)).toEqual(
        attempt(id, { state: 'succeeded', transactionId: 'txn_9', handledState: 'succeeded', updatedAt: 4_000 }),
      );
      expect(await store.settle(orderId(), 'req', { state: 'failed', updatedAt: 1 }, HOUR)).toBe(false);
    });

    it('unsettled() lists open, pending and unhandled final attempts changed before the cut-off, oldest first, up to the limit', async () => {
      const store = await target.create();
      const ids = Array.from({ length: 5 }, orderId);
      const [open, pending, unhandled, handled, recent] = ids as [string, string, string, string, string];
      await store.put(attempt(pending, { updatedAt: 200 }), HOUR);
      await store.put(attempt(open, { kind: 'hosted', state: 'open', updatedAt: 100 }), HOUR);
      await store.put(attempt(unhandled, { state: 'failed', updatedAt: 300 }), HOUR);
      await store.put(attempt(handled, { state: 'closed', handledState: 'closed', updatedAt: 50 }), HOUR);
      await store.put(attempt(recent, { updatedAt: 9_000 }), HOUR);
      const listed = (await store.unsettled({ changedBefore: 1_000, limit: 100 })).filter((a) => ids.includes(a.referenceOrderId));
      expect(listed.map((a) => a.referenceOrderId)).toEqual([open, pending, unhandled]);
      const firstTwo = await store.unsettled({ changedBefore: 1_000, limit: 2 });
      expect(firstTwo).toHaveLength(2);
      await store.settle(unhandled, `req-${unhandled}`, { state: 'failed', handled: true, updatedAt: 400 }, HOUR);
      await store.settle(pending, `req-${pending}`, { state: 'pending', updatedAt: 5_000 }, HOUR);
      const after = (await store.unsettled({ changedBefore: 1_000, limit: 100 })).filter((a) => ids.includes(a.referenceOrderId));
      expect(after.map((a) => a.referenceOrderId)).toEqual([open]);
    });
  });
}
