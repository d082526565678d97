import { describe, expect, it } from 'vitest';
import { dedupeKeysOf } from '../src/idempotency/dedupe-keys';
import { MemoryIdempotencyStore } from '../src/idempotency/memory-store';

function manualClock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('MemoryIdempotencyStore', () => {
  it('grants a key once until it is released or expires', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ clock });
    expect(await store.claim('k', 1_000)).toBe(true);
    expect(await store.claim('k', 1_000)).toBe(false);
    await store.release('k');
    expect(await store.claim('k', 1_000)).toBe(true);
    clock.advance(999);
    expect(await store.claim('k', 1_000)).toBe(false);
    clock.advance(1);
    expect(await store.claim('k', 1_000)).toBe(true);
  });

  it('complete() keeps a key for its own TTL, replacing the claim TTL', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ clock });
    await store.claim('k', 10);
    await store.complete('k', 5_000);
    clock.advance(4_999);
    expect(await store.claim('k', 10)).toBe(false);
    clock.advance(1);
    expect(await store.claim('k', 10)).toBe(true);
  });

  it('state() tells a claimed key (processing) from a completed one (done) and a free or expired one', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ clock });
    expect(await store.state('k')).toBeUndefined();
    await store.claim('k', 100);
    expect(await store.state('k')).toBe('processing');
    await store.complete('k', 1_000);
    expect(await store.state('k')).toBe('done');
    clock.advance(1_000);
    expect(await store.state('k')).toBeUndefined();
    await store.claim('k', 100);
    await store.release('k');
    expect(await store.state('k')).toBeUndefined();
  });

  it('concurrent claims of one key: exactly one wins', async () => {
    const store = new MemoryIdempotencyStore();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim('same', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('never holds more than maxEntries: expired keys go first, then the oldest', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ maxEntries: 3, clock });
    await store.claim('short', 10);
    await store.claim('a', 60_000);
    await store.claim('b', 60_000);
    clock.advance(10);
    await store.claim('c', 60_000);
    expect(store.size).toBe(3);
    expect(await store.claim('a', 60_000)).toBe(false);
    await store.claim('d', 60_000);
    expect(store.size).toBe(3);
    // 'a' was the oldest live key, so it was dropped to make room.
    expect(await store.claim('a', 60_000)).toBe(true);
    expect(store.size).toBe(3);
  });

  it('when full, a key that expired since the last sweep is dropped before any live key', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ maxEntries: 3, clock });
    await store.claim('a', 60_000);
    await store.claim('b', 60_000);
    await store.claim('c', 60_000);
    await store.claim('d', 60_000); // nothing has expired: the oldest live key, 'a', makes room
    expect(await store.state('a')).toBeUndefined();
    await store.claim('short', 5); // 'b' makes room
    clock.advance(10);
    await store.claim('e', 60_000); // 'short' has expired since: it goes, and 'c' stays
    expect([await store.state('c'), await store.state('d'), await store.state('e')]).toEqual(['processing', 'processing', 'processing']);
    expect(store.size).toBe(3);
  });

  it('refuses a non-positive bound', () => {
    expect(() => new MemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('dedupeKeysOf', () => {
  const base = { type: 'payment.succeeded' as const, deliveryId: 'd1', timestamp: 0, payload: {} };

  it('keys by delivery id and by transaction + status', () => {
    expect(dedupeKeysOf({ ...base, transactionId: 'T1', transactionType: 'SALE', transactionStatus: 'S' })).toEqual([
      'delivery:d1',
      'event:SALE:id=T1:S',
    ]);
  });

  it('falls back to the transactionRequestId, and to the delivery alone when there is no identity', () => {
    expect(dedupeKeysOf({ ...base, transactionRequestId: 'R1', transactionType: 'SALE', transactionStatus: 'F' })).toEqual([
      'delivery:d1',
      'event:SALE:request=R1:F',
    ]);
    expect(dedupeKeysOf(base)).toEqual(['delivery:d1']);
  });

  it('gives a later, different status of the same transaction its own identity', () => {
    const failed = dedupeKeysOf({ ...base, transactionId: 'T1', transactionType: 'SALE', transactionStatus: 'F' });
    const succeeded = dedupeKeysOf({ ...base, deliveryId: 'd2', transactionId: 'T1', transactionType: 'SALE', transactionStatus: 'S' });
    expect(failed[1]).not.toBe(succeeded[1]);
  });
});
