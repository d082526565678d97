import { setTimeout as sleep } from 'node:timers/promises';
import type { IdempotencyStore } from '@paymount/core';
import { describe, expect, it } from 'vitest';

/**
 * What every IdempotencyStore with renew() must do about a claim's lifetime,
 * run against each implementation (the memory store in core, the Redis
 * store). `create()` gives a fresh store; `instances()`, two instances that
 * share their keys through separate connections, where the implementation
 * has them (undefined for a process-local store). Expiry is real time: TTLs
 * here are a few hundred milliseconds.
 */
export interface IdempotencyStoreTarget {
  create(): Promise<IdempotencyStore>;
  instances(): Promise<[IdempotencyStore, IdempotencyStore] | undefined>;
}

const TTL_MS = 200;
let keys = 0;
const freshKey = () => `contract-${process.pid}-${++keys}`;

function renewOf(store: IdempotencyStore): NonNullable<IdempotencyStore['renew']> {
  if (typeof store.renew !== 'function') throw new Error('the store under test has no renew()');
  return store.renew.bind(store);
}

export function describeIdempotencyStoreContract(name: string, target: IdempotencyStoreTarget): void {
  describe(`${name}: IdempotencyStore renew() contract`, () => {
    it('renew() keeps a held claim past its TTL for as long as it is called; once it stops, the claim expires', async () => {
      const store = await target.create();
      const renew = renewOf(store);
      const key = freshKey();
      expect(await store.claim(key, TTL_MS)).toBe(true);
      // Five TTLs long, renewed every third of one.
      for (let beat = 0; beat < 15; beat += 1) {
        await sleep(TTL_MS / 3);
        expect(await renew(key, TTL_MS)).toBe(true);
        expect(await store.claim(key, TTL_MS)).toBe(false);
      }
      expect(await store.state(key)).toBe('processing');
      await sleep(TTL_MS + 50);
      expect(await store.state(key)).toBeUndefined();
      expect(await store.claim(key, TTL_MS)).toBe(true);
    });

    it('renew() of a key that is free, released or expired answers false and creates nothing', async () => {
      const store = await target.create();
      const renew = renewOf(store);
      const never = freshKey();
      expect(await renew(never, 60_000)).toBe(false);
      expect(await store.state(never)).toBeUndefined();

      const released = freshKey();
      await store.claim(released, 60_000);
      await store.release(released);
      expect(await renew(released, 60_000)).toBe(false);
      expect(await store.state(released)).toBeUndefined();

      const expired = freshKey();
      await store.claim(expired, 50);
      await sleep(100);
      expect(await renew(expired, 60_000)).toBe(false);
      expect(await store.state(expired)).toBeUndefined();
      expect(await store.claim(expired, 60_000)).toBe(true);
    });

    it('renew() of a completed key answers false and leaves it done for its own TTL', async () => {
      const store = await target.create();
      const renew = renewOf(store);
      const key = freshKey();
      await store.claim(key, 60_000);
      await store.complete(key, TTL_MS * 2);
      // A late heartbeat must neither turn the key back into a claim nor cut its memory short.
      expect(await renew(key, 10)).toBe(false);
      await sleep(TTL_MS);
      expect(await store.state(key)).toBe('done');
      await sleep(TTL_MS + 50);
      expect(await store.state(key)).toBeUndefined();
    });

    it('renew() by an instance whose claim expired answers false and leaves the claim another instance took alone', async (context) => {
      const pair = await target.instances();
      if (pair === undefined) return context.skip('a process-local store has one claimant per key');
      const [late, other] = pair;
      const key = freshKey();
      expect(await late.claim(key, 50)).toBe(true);
      await sleep(100);
      expect(await other.claim(key, TTL_MS)).toBe(true);
      expect(await renewOf(late)(key, 60_000)).toBe(false);
      await sleep(TTL_MS + 50);
      // Still the other instance's TTL, not the one the late renewal asked for.
      expect(await other.state(key)).toBeUndefined();
      expect(await renewOf(other)(key, TTL_MS)).toBe(false);
    });
  });
}
