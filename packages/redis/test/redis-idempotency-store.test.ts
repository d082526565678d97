import { setTimeout as sleep } from 'node:timers/promises';
import { PaymentStoreUnavailableError, PaymentValidationError } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_PREFIX, RedisIdempotencyStore, type RedisIdempotencyStoreOptions } from '../src';
import { adminClient, closeClients, storeClient, whenReady } from './support/clients';
import { describeIdempotencyStoreContract } from '../../../tools/idempotency-store-contract';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

/** Polls `check` every 20 ms until it holds; fails after `withinMs`. */
async function eventually(check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  for (const giveUpAt = Date.now() + withinMs; Date.now() < giveUpAt; await sleep(20)) {
    if (await check()) return;
  }
  throw new Error(`condition not met within ${withinMs} ms`);
}

describe.skipIf(redisSkipped())('RedisIdempotencyStore', () => {
  let redis: RedisServer;
  const stores: RedisIdempotencyStore[] = [];
  let prefixCount = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  // After all, not each: the shared contract's tests run side by side.
  afterAll(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await closeClients();
    await redis?.stop();
  });

  /** A store on its own connection; every test gets its own key prefix. */
  async function newStore(options: Partial<RedisIdempotencyStoreOptions> = {}, prefix = `test${++prefixCount}:`) {
    const client = storeClient(redis.url);
    await whenReady(client);
    const store = new RedisIdempotencyStore({ client, keyPrefix: prefix, ...options });
    stores.push(store);
    return store;
  }

  describeIdempotencyStoreContract('RedisIdempotencyStore', {
    create: () => newStore({}, 'contract:'),
    instances: async () => [await newStore({}, 'contract:'), await newStore({}, 'contract:')],
  });

  it('renews with PEXPIRE only while the key holds this claim\'s token', async () => {
    const store = await newStore({}, 'renew:');
    const admin = adminClient(redis.url);
    expect(await store.claim('k', 30_000)).toBe(true);
    expect(await store.renew('k', 60_000)).toBe(true);
    expect(await admin.pttl('renew:k')).toBeGreaterThan(30_000);
    // Another instance's claim under the same key (ours expired and it took the key): our renewal leaves it alone.
    await admin.set('renew:k', 'another-token', 'PX', 30_000);
    expect(await store.renew('k', 60_000)).toBe(false);
    expect(await admin.get('renew:k')).toBe('another-token');
    expect(await admin.pttl('renew:k')).toBeLessThanOrEqual(30_000);
  });

  it('grants a key to exactly one of many concurrent claims from separate connections', async () => {
    const a = await newStore({}, 'race:');
    const b = await newStore({}, 'race:');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim('delivery:1', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('claims with SET NX PX: the key carries the claim TTL and the prefix', async () => {
    const store = await newStore({}, 'ttl:');
    const admin = adminClient(redis.url);
    expect(await store.claim('k', 30_000)).toBe(true);
    const ttl = await admin.pttl('ttl:k');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await store.claim('k', 30_000)).toBe(false);
  });

  it('uses paymount:idempotency: as the default prefix', async () => {
    const client = storeClient(redis.url);
    await whenReady(client);
    const store = new RedisIdempotencyStore({ client });
    stores.push(store);
    expect(store.keyPrefix).toBe(DEFAULT_KEY_PREFIX);
    await store.claim('default-prefix', 10_000);
    expect(await adminClient(redis.url).exists(`${DEFAULT_KEY_PREFIX}default-prefix`)).toBe(1);
    await store.release('default-prefix');
  });

  it('release() frees its own claim, so the key can be claimed again', async () => {
    const store = await newStore();
    expect(await store.claim('k', 60_000)).toBe(true);
    await store.release('k');
    expect(await store.claim('k', 60_000)).toBe(true);
  });

  it('a late release() never frees a claim another instance took after ours expired', async () => {
    const a = await newStore({}, 'late:');
    const b = await newStore({}, 'late:');
    const admin = adminClient(redis.url);
    expect(await a.claim('k', 60_000)).toBe(true);
    await admin.del('late:k'); // a's claim expires
    expect(await b.claim('k', 60_000)).toBe(true);
    await a.release('k');
    expect(await a.claim('k', 60_000)).toBe(false);
    // Releasing a key this instance never claimed is a no-op too.
    await a.release('k');
    expect(await admin.exists('late:k')).toBe(1);
  });

  it('complete() marks the key done for its own TTL', async () => {
    const store = await newStore({}, 'done:');
    const admin = adminClient(redis.url);
    await store.claim('k', 30_000);
    await store.complete('k', 86_400_000);
    expect(await admin.get('done:k')).toBe('done');
    expect(await admin.pttl('done:k')).toBeGreaterThan(30_000);
    expect(await store.claim('k', 30_000)).toBe(false);
  });

  it('state() tells every instance whether a key is being processed, done or free', async () => {
    const a = await newStore({}, 'state:');
    const b = await newStore({}, 'state:');
    expect(await b.state('k')).toBeUndefined();
    await a.claim('k', 60_000);
    expect(await b.state('k')).toBe('processing');
    await a.complete('k', 60_000);
    expect(await b.state('k')).toBe('done');
  });

  it('complete() after our claim expired: remembers the key if free, leaves another owner’s claim alone', async () => {
    const a = await newStore({}, 'expired:');
    const b = await newStore({}, 'expired:');
    const admin = adminClient(redis.url);
    await a.claim('free', 1_000);
    await admin.del('expired:free');
    await a.complete('free', 60_000);
    expect(await admin.get('expired:free')).toBe('done');

    await a.claim('taken', 1_000);
    await admin.del('expired:taken');
    await b.claim('taken', 60_000);
    const bToken = await admin.get('expired:taken');
    await a.complete('taken', 60_000);
    expect(await admin.get('expired:taken')).toBe(bToken);
  });

  it('refuses bad options with the field and rule named', () => {
    const refusal = (options: unknown) => {
      try {
        new RedisIdempotencyStore(options as RedisIdempotencyStoreOptions);
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentValidationError);
        return (error as PaymentValidationError).issues;
      }
      throw new Error('expected a PaymentValidationError');
    };
    expect(refusal({})).toEqual([expect.objectContaining({ rule: 'one_connection_option' })]);
    expect(refusal({ client: {} })).toEqual([expect.objectContaining({ path: 'client' })]);
    expect(refusal({ connection: redis.url, keyPrefx: 'typo:' })).toEqual([
      expect.objectContaining({ path: 'keyPrefx', rule: 'unknown_field', message: 'is not an option; did you mean `keyPrefix`?' }),
    ]);
    expect(refusal({ connection: redis.url, keyPrefix: 7 })).toEqual([expect.objectContaining({ path: 'keyPrefix' })]);
  });

  it('creates and closes its own client from a URL', async () => {
    const store = new RedisIdempotencyStore({ connection: redis.url, keyPrefix: 'own:' });
    await whenReady(store.client);
    expect(await store.claim('k', 10_000)).toBe(true);
    await store.close();
    expect(store.client.status).toBe('end');
  });

  it('close() returns while Redis is down, and a claim then fails fast', async () => {
    const own = await startRedisServer();
    const store = new RedisIdempotencyStore({ connection: own.url, keyPrefix: 'down:' });
    await whenReady(store.client);
    await own.stop();
    await expect(store.claim('k', 10_000)).rejects.toBeInstanceOf(PaymentStoreUnavailableError);
    await store.close();
    expect(store.client.status).not.toBe('ready');
  });

  it('keeps nothing to undo for a claim refused before it was sent', async () => {
    const own = await startRedisServer();
    const store = new RedisIdempotencyStore({ connection: own.url, keyPrefix: 'unsent:' });
    stores.push(store);
    await whenReady(store.client);
    await own.stop();
    await expect(store.claim('k', 10_000)).rejects.toThrow('claim not attempted');
    // Only a SET that went out can have claimed the key; an outage must not fill the bounded list of claims to undo.
    expect((store as unknown as { link: { orphans: { size: number } } }).link.orphans.size).toBe(0);
  });

  it('connects a lazyConnect client itself', async () => {
    const { hostname, port } = new URL(redis.url);
    const store = new RedisIdempotencyStore({ connection: { host: hostname, port: Number(port), lazyConnect: true }, keyPrefix: 'lazy:' });
    stores.push(store);
    await whenReady(store.client);
    expect(await store.claim('k', 10_000)).toBe(true);
  });

  it('undoes a claim whose answer never came (a time-out) once Redis answers again', async () => {
    const client = storeClient(redis.url, { commandTimeout: 100 });
    await whenReady(client);
    const store = new RedisIdempotencyStore({ client, keyPrefix: 'orphan:' });
    stores.push(store);
    const other = await newStore({}, 'orphan:');
    const admin = adminClient(redis.url);

    // Writes wait on the server while paused: the SET lands after the client gave up on it (its 100 ms time-out
    // may fire late on a busy machine and still come 2 s before the pause ends).
    await admin.call('CLIENT', 'PAUSE', '2500', 'WRITE');
    await expect(store.claim('k', 60_000)).rejects.toBeInstanceOf(PaymentStoreUnavailableError);
    await eventually(async () => (await admin.exists('orphan:k')) === 1);
    // The next healthy answer triggers the undo.
    expect(await store.claim('unrelated', 60_000)).toBe(true);
    await eventually(async () => (await admin.exists('orphan:k')) === 0);
    expect(await other.claim('k', 60_000)).toBe(true);
  });
});
