import { PaymentStoreUnavailableError, PaymentValidationError, type OrderAttempt } from '@paymount/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeOrderAttemptStoreContract } from '../../../tools/order-store-contract';
import { createRedisStores, DEFAULT_ORDER_KEY_PREFIX, FAIL_FAST_REDIS_OPTIONS, RedisOrderAttemptStore } from '../src';
import { adminClient, closeClients, storeClient, whenReady } from './support/clients';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

const pending = (referenceOrderId: string): OrderAttempt => ({
  referenceOrderId,
  kind: 'wallet',
  transactionRequestId: `req-${referenceOrderId}`,
  state: 'pending',
  updatedAt: 1_000,
});

describe.skipIf(redisSkipped())('RedisOrderAttemptStore', () => {
  let redis: RedisServer;
  const stores: Array<{ close(): Promise<void> }> = [];
  let prefixCount = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await closeClients();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** A store on its own connection. */
  async function newStore(keyPrefix: string): Promise<RedisOrderAttemptStore> {
    const client = storeClient(redis.url);
    await whenReady(client);
    const store = new RedisOrderAttemptStore({ client, keyPrefix });
    stores.push(store);
    return store;
  }

  describeOrderAttemptStoreContract('RedisOrderAttemptStore', {
    create: () => newStore(`contract${++prefixCount}:`),
    async stores(count) {
      const prefix = `contract${++prefixCount}:`;
      return Promise.all(Array.from({ length: count }, () => newStore(prefix)));
    },
  });

  it('keeps the lock and the attempt under its prefix, each with its TTL', async () => {
    const store = await newStore('keys:');
    const admin = adminClient(redis.url);
    expect(await store.lock('order-1', 30_000)).toEqual(expect.any(String));
    await store.put(pending('order-1'), 60_000);
    const lockTtl = await admin.pttl('keys:lock:order-1');
    const attemptTtl = await admin.pttl('keys:attempt:order-1');
    expect(lockTtl).toBeGreaterThan(25_000);
    expect(lockTtl).toBeLessThanOrEqual(30_000);
    expect(attemptTtl).toBeGreaterThan(55_000);
    expect(attemptTtl).toBeLessThanOrEqual(60_000);
    expect(await admin.zrange('keys:unsettled', 0, -1)).toEqual(['order-1']);
  });

  it('uses paymount:orders: as the default prefix', async () => {
    const client = storeClient(redis.url);
    await whenReady(client);
    const store = new RedisOrderAttemptStore({ client });
    stores.push(store);
    expect(store.keyPrefix).toBe(DEFAULT_ORDER_KEY_PREFIX);
    await store.put(pending('default-prefix'), 60_000);
    expect(await adminClient(redis.url).exists('paymount:orders:attempt:default-prefix')).toBe(1);
  });

  it('refuses an attempt it cannot read back rather than trusting it', async () => {
    const store = await newStore('corrupt:');
    await adminClient(redis.url).hset('corrupt:attempt:order-9', 'state', 'maybe-paid');
    await expect(store.get('order-9')).rejects.toThrow(PaymentStoreUnavailableError);
  });

  it('drops an index entry whose attempt expired when listing unsettled attempts', async () => {
    const store = await newStore('stale:');
    const admin = adminClient(redis.url);
    await store.put(pending('gone'), 60_000);
    await admin.del('stale:attempt:gone');
    expect(await store.unsettled({ changedBefore: Date.now(), limit: 10 })).toEqual([]);
    expect(await admin.zcard('stale:unsettled')).toBe(0);
  });

  it('fails fast with PaymentStoreUnavailableError while Redis is down', async () => {
    const own = await startRedisServer();
    const store = new RedisOrderAttemptStore({ connection: own.url, keyPrefix: 'down:' });
    stores.push(store);
    await whenReady(store.client);
    await own.stop();
    const started = Date.now();
    for (const operation of [() => store.lock('o', 1_000), () => store.get('o'), () => store.put(pending('o'), 1_000)]) {
      await expect(operation()).rejects.toThrow(PaymentStoreUnavailableError);
    }
    // All three together within one command time-out: none of them waited for a server that is not there.
    expect(Date.now() - started).toBeLessThan(FAIL_FAST_REDIS_OPTIONS.commandTimeout);
  });

  it('refuses bad options with the field and rule named', () => {
    for (const build of [() => new RedisOrderAttemptStore({} as never), () => createRedisStores({ keyPrefix: 'x:' })]) {
      let error: unknown;
      try {
        build();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PaymentValidationError);
      expect((error as PaymentValidationError).issues[0]).toMatchObject({ rule: 'one_connection_option' });
    }
  });

  it('createRedisStores: both stores on one connection, each under its own prefix; close() closes it once', async () => {
    const redisStores = createRedisStores({ connection: redis.url, keyPrefix: 'shop:' });
    await whenReady(redisStores.client);
    expect(redisStores.orders.client).toBe(redisStores.idempotency.client);
    expect(await redisStores.idempotency.claim('event:1', 60_000)).toBe(true);
    await redisStores.orders.put(pending('order-7'), 60_000);
    const admin = adminClient(redis.url);
    expect((await admin.keys('shop:*')).sort()).toEqual(['shop:idempotency:event:1', 'shop:orders:attempt:order-7', 'shop:orders:unsettled']);
    const clients = Number(/connected_clients:(\d+)/.exec(await admin.info('clients'))?.[1]);
    await redisStores.close();
    expect(redisStores.client.status).toBe('end');
    const after = Number(/connected_clients:(\d+)/.exec(await admin.info('clients'))?.[1]);
    expect(clients - after).toBe(1);
  });
});
