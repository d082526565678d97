import type { IdempotencyStore } from '@paymount/core';
import { describe, it } from 'vitest';
import { freshKeys, sleep } from '../store-contract-runtime';

/**
 * What every IdempotencyStore with renew() must do about a claim's lifetime,
 * run against each implementation (the memory store in core, the Redis and
 * PostgreSQL stores). `create()` gives a fresh store; `instances()`, two
 * instances that share their keys through separate connections, where the
 * implementation has them (undefined for a process-local store). `elapse(ms)`
 * moves the stores' clock on where the test drives it; without it, time is
 * real (the server's clock) and the test sleeps.
 */
export interface IdempotencyStoreTarget {
  create(): Promise<IdempotencyStore>;
  instances(): Promise<[IdempotencyStore, IdempotencyStore] | undefined>;
  elapse?(ms: number): Promise<void>;
}

// On real time, a renewal or a reading may come this late on a busy machine (a claim's TTL less one beat: 2 s) and
// still find the key alive; waits for a key to lapse only get safer when the machine is slow.
const TTL_MS = 2_500;
const BEAT_MS = 500;
/** Past a TTL: a timer may fire a millisecond early, and a server's clock is read a little after the store's call. */
const LAPSE_MS = 50;
const freshKey = freshKeys();

function renewOf(store: IdempotencyStore): NonNullable<IdempotencyStore['renew']> {
  if (typeof store.renew !== 'function') throw new Error('the store under test has no renew()');
  return store.renew.bind(store);
}

export function describeIdempotencyStoreContract(name: string, target: IdempotencyStoreTarget): void {
  const elapse = (ms: number) => (target.elapse ? target.elapse(ms) : sleep(ms));
  // On real time the tests mostly wait: they wait side by side. A driven clock is one for all, so its tests take turns.
  (target.elapse ? describe : describe.concurrent)(`${name}: IdempotencyStore renew() contract`, () => {
    it('renew() keeps a held claim past its TTL for as long as it is called; once it stops, the claim expires', async ({ expect }) => {
      const store = await target.create();
      const renew = renewOf(store);
      const key = freshKey();
      expect(await store.claim(key, TTL_MS)).toBe(true);
      // Past the TTL by two beats, renewed every fifth of one.
      for (let renewed = 0; renewed < TTL_MS + 2 * BEAT_MS; renewed += BEAT_MS) {
        await elapse(BEAT_MS);
        expect(await renew(key, TTL_MS)).toBe(true);
        expect(await store.claim(key, TTL_MS)).toBe(false);
      }
      expect(await store.state(key)).toBe('processing');
      await elapse(TTL_MS + LAPSE_MS);
      expect(await store.state(key)).toBeUndefined();
      expect(await store.claim(key, TTL_MS)).toBe(true);
    });

    it('renew() of a key that is free, released or expired answers false and creates nothing', async ({ expect }) => {
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
      await elapse(50 + LAPSE_MS);
      expect(await renew(expired, 60_000)).toBe(false);
      expect(await store.state(expired)).toBeUndefined();
      expect(await store.claim(expired, 60_000)).toBe(true);
    });

    it('renew() of a completed key answers false and leaves it done for its own TTL', async ({ expect }) => {
      const store = await target.create();
      const renew = renewOf(store);
      const key = freshKey();
      await store.claim(key, 60_000);
      await store.complete(key, TTL_MS);
      // A late heartbeat must neither turn the key back into a claim nor cut its memory short.
      expect(await renew(key, 10)).toBe(false);
      await elapse(10 + LAPSE_MS);
      expect(await store.state(key)).toBe('done');
      await elapse(TTL_MS);
      expect(await store.state(key)).toBeUndefined();
    });

    it('renew() by an instance whose claim expired answers false and leaves the claim another instance took alone', async ({ expect, skip }) => {
      const pair = await target.instances();
      if (pair === undefined) return skip('a process-local store has one claimant per key');
      const [late, other] = pair;
      const key = freshKey();
      expect(await late.claim(key, 50)).toBe(true);
      await elapse(50 + LAPSE_MS);
      expect(await other.claim(key, TTL_MS)).toBe(true);
      expect(await renewOf(late)(key, 60_000)).toBe(false);
      await elapse(TTL_MS + LAPSE_MS);
      // Still the other instance's TTL, not the one the late renewal asked for.
      expect(await other.state(key)).toBeUndefined();
      expect(await renewOf(other)(key, TTL_MS)).toBe(false);
    });
  });
}
