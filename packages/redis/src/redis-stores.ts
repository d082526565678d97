import type { Logger } from '@paymount/core';
import { validate } from '@paymount/core/schemas';
import type { Cluster, Redis } from 'ioredis';
import type { RedisConnection } from './connection';
import { redisStoreOptionsSchema } from './options-schema';
import { RedisIdempotencyStore } from './redis-idempotency-store';
import { RedisOrderAttemptStore } from './redis-order-attempt-store';

export interface RedisStoresOptions {
  /** A connected ioredis client to share; not closed by `close()`. Give it FAIL_FAST_REDIS_OPTIONS. */
  client?: Redis | Cluster;
  /** Or where to connect: one client is created with FAIL_FAST_REDIS_OPTIONS and closed by `close()`. */
  connection?: RedisConnection;
  /** Prefix of both stores' keys, followed by `idempotency:` and `orders:`. Default `paymount:`. */
  keyPrefix?: string;
  /** See RedisStoreConnectionOptions: told about outages, and warned once about a Redis that can lose keys. */
  logger?: Logger;
  /** Refuse a Redis that could lose order attempts, locks or handled events; see RedisStoreConnectionOptions. */
  requireDurability?: boolean;
}

export interface RedisStores {
  /** The webhook dedupe store: the `store` option. */
  idempotency: RedisIdempotencyStore;
  /** The per-order payment guard's store: the `orders.store` option. */
  orders: RedisOrderAttemptStore;
  /** The one client both stores use. */
  client: Redis | Cluster;
  /** Stops both stores, and closes the client if it was created here. */
  close(): Promise<void>;
}

/** Both stores a paymount app needs, on one Redis connection. */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  validate(redisStoreOptionsSchema, options, 'Redis stores options');
  const prefix = options.keyPrefix ?? 'paymount:';
  const shared = {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.requireDurability === undefined ? {} : { requireDurability: options.requireDurability }),
  };
  // The first store owns a client it creates from `connection`; the second borrows it.
  const idempotency = new RedisIdempotencyStore({
    ...(options.client ? { client: options.client } : { connection: options.connection as RedisConnection }),
    keyPrefix: `${prefix}idempotency:`,
    ...shared,
  });
  const orders = new RedisOrderAttemptStore({ client: idempotency.client, keyPrefix: `${prefix}orders:`, ...shared });
  return {
    idempotency,
    orders,
    client: idempotency.client,
    async close() {
      await orders.close();
      await idempotency.close();
    },
  };
}
