import { describe, expect, it } from 'vitest';
import { describeIdempotencyStoreContract } from '../../../tools/idempotency-store-contract';
import { dedupeKeyOf, MemoryIdempotencyStore } from '../src/index';
import type { PaymentEvent } from '../src/index';
import { normalizeEvent } from '../src/entries/internal';

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

  it('when full, the least recently claimed key goes: completing a key leaves it where its claim put it', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 2 });
    await store.claim('a', 60_000);
    await store.claim('b', 60_000);
    await store.complete('a', 60_000);
    await store.claim('c', 60_000);
    expect([await store.state('a'), await store.state('b'), await store.state('c')]).toEqual([undefined, 'processing', 'processing']);
  });

  it('a key completed with a TTL shorter than its claim is swept once that TTL ends, before any live key', async () => {
    const clock = manualClock();
    const store = new MemoryIdempotencyStore({ maxEntries: 2, clock });
    await store.claim('b', 60_000);
    await store.claim('a', 60_000);
    await store.complete('a', 5);
    clock.advance(5);
    await store.claim('c', 60_000);
    expect([await store.state('a'), await store.state('b'), await store.state('c')]).toEqual([undefined, 'processing', 'processing']);
  });

  it('through a long run of claims, releases and reclaims, holds exactly the newest maxEntries keys', async () => {
    const maxEntries = 5;
    const store = new MemoryIdempotencyStore({ maxEntries });
    // The rule, written plainly: keys in claim order, the oldest dropped past the bound.
    const model: string[] = [];
    let seed = 7;
    // xorshift32: a fixed, evenly spread sequence, so a failure replays.
    const random = (below: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % below;
    };
    for (let step = 0; step < 20_000; step++) {
      const key = `k${random(15)}`;
      if (random(4) === 0) {
        await store.release(key);
        const at = model.indexOf(key);
        if (at !== -1) model.splice(at, 1);
      } else if (await store.claim(key, 60_000)) {
        expect(model).not.toContain(key);
        model.push(key);
        if (model.length > maxEntries) model.shift();
      } else {
        expect(model).toContain(key);
      }
    }
    expect(store.size).toBe(model.length);
    for (const key of model) expect(await store.state(key)).toBe('processing');
  });

  it('refuses a non-positive bound', () => {
    expect(() => new MemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('dedupeKeyOf', () => {
  // Every field a named event requires, so only the fields under test vary.
  const complete = {
    referenceOrderId: 'order-1',
    originalTransactionId: 'T0',
    amount: { orderAmount: 100, priceCurrency: 'USD' },
    reason: { code: 'CARD_DECLINED', message: 'card declined' },
  };
  const event = (fields: Record<string, unknown>, deliveryId = 'd1'): PaymentEvent =>
    normalizeEvent({ ...complete, ...fields }, { deliveryId, timestamp: 0 });
  const sale = { transactionType: 'SALE', transactionId: 'T1', transactionRequestId: 'R1', transactionStatus: 'S' };
  const refund = (transactionId: string, transactionRequestId: string, extra: Record<string, unknown> = {}) =>
    event({ transactionType: 'REFUND', transactionId, transactionRequestId, transactionStatus: 'S', ...extra });

  it('is one key from the signed body alone: the delivery id and timestamp do not change it', async () => {
    const key = await dedupeKeyOf(event(sale));
    expect(await dedupeKeyOf(normalizeEvent({ ...complete, ...sale }, { deliveryId: 'another', timestamp: 123 }))).toBe(key);
    expect(key).toMatch(/^event:[A-Za-z0-9_-]{43}$/);
  });

  it('tells two partial refunds apart, even when both answer with the same transactionId', async () => {
    expect(await dedupeKeyOf(refund('RF1', 'RR1'))).not.toBe(await dedupeKeyOf(refund('RF2', 'RR2')));
    expect(await dedupeKeyOf(refund('T1', 'RR1'))).not.toBe(await dedupeKeyOf(refund('T1', 'RR2')));
  });

  it('tells a sale from its refund, with or without transactionType in the body', async () => {
    const { transactionType: _type, ...untyped } = sale;
    const refunds = [refund('RF1', 'RR1'), refund('T1', 'RR1'), refund('T1', 'RR1', { transactionType: undefined })];
    for (const saleEvent of [event(sale), event(untyped)]) {
      for (const refundEvent of refunds) expect(await dedupeKeyOf(refundEvent)).not.toBe(await dedupeKeyOf(saleEvent));
    }
  });

  it('gives a later, different status of the same transaction its own key', async () => {
    expect(await dedupeKeyOf(event({ ...sale, transactionStatus: 'F' }))).not.toBe(await dedupeKeyOf(event(sale)));
  });

  it('ignores letter case in type and status exactly where the event name does, and compares ids exactly', async () => {
    const lower = event({ ...sale, transactionType: 'sale', transactionStatus: 's' });
    expect(lower.type).toBe(event(sale).type);
    expect(await dedupeKeyOf(lower)).toBe(await dedupeKeyOf(event(sale)));
    expect(await dedupeKeyOf(event({ ...sale, transactionId: 't1' }))).not.toBe(await dedupeKeyOf(event(sale)));
  });

  it('keys an event with neither id by its whole body', async () => {
    const a = normalizeEvent({ transactionType: 'SALE', sessionId: 'cs_1' }, { deliveryId: 'd1', timestamp: 0 });
    const b = normalizeEvent({ transactionType: 'SALE', sessionId: 'cs_1' }, { deliveryId: 'd2', timestamp: 0 });
    const c = normalizeEvent({ transactionType: 'SALE', sessionId: 'cs_2' }, { deliveryId: 'd1', timestamp: 0 });
    expect(await dedupeKeyOf(a)).toBe(await dedupeKeyOf(b));
    expect(await dedupeKeyOf(a)).not.toBe(await dedupeKeyOf(c));
  });

  it('has the same size whatever the body holds', async () => {
    expect(await dedupeKeyOf(event({ ...sale, transactionId: 'T'.repeat(50_000) }))).toHaveLength((await dedupeKeyOf(event(sale))).length);
  });
});

const contractClock = manualClock();
describeIdempotencyStoreContract('MemoryIdempotencyStore', {
  create: async () => new MemoryIdempotencyStore({ clock: contractClock }),
  instances: async () => undefined,
  elapse: async (ms) => contractClock.advance(ms),
});
