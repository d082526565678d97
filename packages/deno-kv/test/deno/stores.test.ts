import { PaymentStoreUnavailableError, PaymentValidationError, type OrderAttempt } from '@paymount/core';
import { describe, expect, it } from 'vitest';
import { ClaimLostError, denoKvStores, inKvCommit } from '../../src';
import { drivenClock, localKv } from './local-kv';

// Run by Deno (vitest.deno.config.ts), on a real local KV.
const kv = localKv();
const HOUR = 3_600_000;
let keys = 0;
const fresh = (what: string) => `${what}-${++keys}`;

describe('denoKvStores options', () => {
  it('a bad option is a PaymentValidationError naming the field and its rule', async () => {
    const db = await kv.open();
    expect(() => denoKvStores(db, { keyPrefix: [] })).toThrow(PaymentValidationError);
    expect(() => denoKvStores(db, { keyPrefix: [] })).toThrow(/keyPrefix.*at least one key part/);
    expect(() => denoKvStores(db, { keyPrefix: [{} as string] })).toThrow(/keyPrefix.*Deno KV key part/);
    expect(() => denoKvStores(db, { clock: Date.now as unknown as { now(): number } })).toThrow(/clock.*now\(\)/);
    expect(() => denoKvStores(db, { keyPrfix: ['x'] } as object)).toThrow(/keyPrfix/);
    expect(() => denoKvStores({ get: () => undefined } as unknown as Deno.Kv)).toThrow(/must be a Deno\.Kv/);
  });

  it('stores under another key prefix share nothing', async () => {
    const [mine, theirs] = [denoKvStores(await kv.open(), { keyPrefix: ['shop-a'] }), denoKvStores(await kv.open(), { keyPrefix: ['shop-b'] })];
    const key = fresh('event');
    expect(await mine.idempotency.claim(key, HOUR)).toBe(true);
    expect(await theirs.idempotency.claim(key, HOUR)).toBe(true);
    expect(await theirs.orders.lock(key, HOUR)).toEqual(expect.any(String));
    expect(await mine.orders.lock(key, HOUR)).toEqual(expect.any(String));
  });
});

describe('DenoKvIdempotencyStore.runHandled: the handlers’ writes commit with the event’s mark', () => {
  it('commits a handler’s writes and the mark together, once', async () => {
    const db = await kv.open();
    const { idempotency } = denoKvStores(db);
    const key = fresh('event');
    const effect = ['effects', key];
    expect(await idempotency.claim(key, HOUR)).toBe(true);
    const answer = await idempotency.runHandled(key, HOUR, async (writes) => {
      writes.sum(effect, 1n).set(['orders', key], 'paid');
      return 'handled';
    });
    expect(answer).toBe('handled');
    expect(await idempotency.state(key)).toBe('done');
    expect((await db.get<Deno.KvU64>(effect)).value?.value).toBe(1n);
    expect((await db.get(['orders', key])).value).toBe('paid');
    // The claim is spent: a second run on this store is refused before anything is written.
    await expect(idempotency.runHandled(key, HOUR, async (writes) => writes.sum(effect, 1n))).rejects.toThrow(ClaimLostError);
    expect((await db.get<Deno.KvU64>(effect)).value?.value).toBe(1n);
  });

  it('writes nothing when a handler throws after adding its writes, and the claim can then be released for a retry', async () => {
    const db = await kv.open();
    const { idempotency } = denoKvStores(db);
    const key = fresh('event');
    await idempotency.claim(key, HOUR);
    const failure = new Error('the handler failed after writing');
    await expect(
      idempotency.runHandled(key, HOUR, async (writes) => {
        writes.set(['orders', key], 'paid');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.get(['orders', key])).versionstamp).toBeNull();
    expect(await idempotency.state(key)).toBe('processing');
    await idempotency.release(key);
    expect(await idempotency.state(key)).toBeUndefined();
  });

  it('writes nothing when another delivery took the claim over while the handlers ran', async () => {
    const db = await kv.open();
    const clock = drivenClock();
    const [slow, other] = [denoKvStores(db, { clock }).idempotency, denoKvStores(await kv.open(), { clock }).idempotency];
    const key = fresh('event');
    await slow.claim(key, 1_000);
    const run = slow.runHandled(key, HOUR, async (writes) => {
      clock.elapse(1_001);
      expect(await other.claim(key, 1_000)).toBe(true);
      writes.set(['orders', key], 'paid by the slow one');
    });
    await expect(run).rejects.toThrow(ClaimLostError);
    expect((await db.get(['orders', key])).versionstamp).toBeNull();
    expect(await other.state(key)).toBe('processing');
  });

  it('a lapsed claim nobody took over is still this store’s: the writes and the mark commit', async () => {
    const db = await kv.open();
    const clock = drivenClock();
    const { idempotency } = denoKvStores(db, { clock });
    const key = fresh('event');
    await idempotency.claim(key, 1_000);
    await idempotency.runHandled(key, HOUR, async (writes) => {
      clock.elapse(5_000);
      writes.set(['orders', key], 'paid');
    });
    expect((await db.get(['orders', key])).value).toBe('paid');
    expect(await idempotency.state(key)).toBe('done');
  });

  it('writes nothing when a check the handler added fails, and says the handlers’ check refused it', async () => {
    const db = await kv.open();
    const { idempotency } = denoKvStores(db);
    const key = fresh('event');
    const balance = ['balance', key];
    await db.set(balance, 10);
    const read = await db.get(balance);
    await idempotency.claim(key, HOUR);
    const run = idempotency.runHandled(key, HOUR, async (writes) => {
      // Someone else changes the entry between the handler's read and the commit.
      await db.set(balance, 99);
      writes.check({ key: balance, versionstamp: read.versionstamp }).set(balance, 11);
    });
    await expect(run).rejects.toThrow(/refused by a check its handlers added/);
    expect((await db.get(balance)).value).toBe(99);
    expect(await idempotency.state(key)).toBe('processing');
  });

  it('inKvCommit hands a handler the writes, and refuses to run where the store gives none', async () => {
    const handler = inKvCommit<{ id: string }, unknown>((event, { db }) => db.set(['seen', event.id], true));
    await expect(handler({ id: 'a' }, { context: undefined })).rejects.toThrow(/denoKvStores\(kv\)\.idempotency/);
    const db = await kv.open();
    const { idempotency } = denoKvStores(db);
    const key = fresh('event');
    await idempotency.claim(key, HOUR);
    await idempotency.runHandled(key, HOUR, (writes) => handler({ id: key }, { context: undefined, db: writes }));
    expect((await db.get(['seen', key])).value).toBe(true);
  });
});

describe('DenoKvOrderAttemptStore', () => {
  const attempt = (referenceOrderId: string, overrides: Partial<OrderAttempt> = {}): OrderAttempt => ({
    referenceOrderId,
    kind: 'wallet',
    transactionRequestId: `req-${referenceOrderId}`,
    state: 'pending',
    updatedAt: 1_000,
    ...overrides,
  });
  const listed = async (orders: ReturnType<typeof denoKvStores>['orders'], ids: string[]) =>
    (await orders.unsettled({ changedBefore: 10_000, limit: 100 })).map((a) => a.referenceOrderId).filter((id) => ids.includes(id));

  it('keeps no unsettled entry for an attempt replaced, settled, deleted or lapsed', async () => {
    const clock = drivenClock();
    const { orders } = denoKvStores(await kv.open(), { clock, keyPrefix: [fresh('prefix')] });
    const [replaced, settled, deleted, lapsed] = [fresh('order'), fresh('order'), fresh('order'), fresh('order')];
    const ids = [replaced, settled, deleted, lapsed];
    await orders.put(attempt(replaced, { updatedAt: 100 }), HOUR);
    await orders.put(attempt(replaced, { updatedAt: 200 }), HOUR);
    await orders.put(attempt(settled), HOUR);
    await orders.put(attempt(deleted), HOUR);
    await orders.put(attempt(lapsed), 1_000);
    expect(await listed(orders, ids)).toEqual([replaced, settled, deleted, lapsed]);
    expect(await orders.settle(settled, `req-${settled}`, { state: 'failed', handled: true, updatedAt: 300 }, HOUR)).toBe(true);
    await orders.delete(deleted);
    clock.elapse(1_000);
    expect(await orders.get(lapsed)).toBeUndefined();
    expect(await listed(orders, ids)).toEqual([replaced]);
    expect((await orders.unsettled({ changedBefore: 10_000, limit: 100 }))[0]).toEqual(attempt(replaced, { updatedAt: 200 }));
  });

  it('a lock lapses on the stores’ clock, whatever KV has not yet dropped', async () => {
    const clock = drivenClock();
    const { orders } = denoKvStores(await kv.open(), { clock });
    const id = fresh('order');
    expect(await orders.lock(id, 1_000)).toEqual(expect.any(String));
    clock.elapse(999);
    expect(await orders.lock(id, 1_000)).toBeUndefined();
    clock.elapse(1);
    expect(await orders.lock(id, 1_000)).toEqual(expect.any(String));
  });

  it('an unreadable attempt is refused as a store failure, not trusted', async () => {
    const db = await kv.open();
    const id = fresh('order');
    await db.set(['paymount', 'order-attempt', id], { attempt: { referenceOrderId: id, state: 'charged-twice' }, until: Date.now() + HOUR });
    await expect(denoKvStores(db).orders.get(id)).rejects.toThrow(PaymentStoreUnavailableError);
  });

  it('a closed KV is a PaymentStoreUnavailableError (the routes answer 503 and send nothing)', async () => {
    const db = await kv.openSeparate();
    const { orders, idempotency } = denoKvStores(db);
    db.close();
    await expect(orders.lock(fresh('order'), HOUR)).rejects.toThrow(PaymentStoreUnavailableError);
    await expect(idempotency.claim(fresh('event'), HOUR)).rejects.toThrow(PaymentStoreUnavailableError);
  });
});
