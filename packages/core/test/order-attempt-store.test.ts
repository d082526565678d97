import { describe, expect, it } from 'vitest';
import { describeOrderAttemptStoreContract } from '../../../tools/order-store-contract';
import { MemoryOrderAttemptStore } from '../src/index';

describeOrderAttemptStoreContract('MemoryOrderAttemptStore', {
  create: async () => new MemoryOrderAttemptStore(),
  async stores(count) {
    const store = new MemoryOrderAttemptStore();
    return Array.from({ length: count }, () => store);
  },
});

describe('MemoryOrderAttemptStore bounds', () => {
  const attempt = (referenceOrderId: string) => ({
    referenceOrderId,
    kind: 'wallet' as const,
    transactionRequestId: `req-${referenceOrderId}`,
    state: 'pending' as const,
    updatedAt: 0,
  });

  it('never holds more than maxOrders attempts: expired ones go first, then the least recently written', async () => {
    const clock = { now: () => 0 };
    const store = new MemoryOrderAttemptStore({ maxOrders: 3, clock });
    await store.put(attempt('a'), 10);
    await store.put(attempt('b'), 1_000);
    await store.put(attempt('c'), 1_000);
    clock.now = () => 20;
    await store.put(attempt('d'), 1_000);
    expect(store.size).toBe(3);
    expect(await store.get('a')).toBeUndefined();
    await store.put(attempt('e'), 1_000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('e'))?.referenceOrderId).toBe('e');
  });

  it('refuses a maxOrders that is not a positive integer', () => {
    expect(() => new MemoryOrderAttemptStore({ maxOrders: 0 })).toThrow(/maxOrders must be a positive integer/);
  });
});
