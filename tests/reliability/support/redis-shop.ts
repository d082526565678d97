import { createRedisStores, type RedisStores } from '@paymount/redis';
import { startSharedStoreShop, type SharedStoreShop, type SharedStoreShopOptions } from './shared-store-instance';

/** One merchant deployed as several app instances, their stores on one Redis, against one sandbox. */
export interface RedisShop extends SharedStoreShop {
  /** Each instance's Redis stores, on its own connection. */
  stores: RedisStores[];
  /** Resolves once every instance's connection is ready again (after a Redis restart). */
  connected(): Promise<void>;
}

export interface RedisShopOptions extends SharedStoreShopOptions {
  redisUrl: string;
}

const READY_POLL_MS = 50;
const READY_WITHIN_MS = 10_000;

export async function startRedisShop(options: RedisShopOptions): Promise<RedisShop> {
  const { redisUrl, ...shopOptions } = options;
  const stores: RedisStores[] = [];
  const started = await startSharedStoreShop(
    shopOptions,
    async () => {
      const store = createRedisStores({ connection: redisUrl, keyPrefix: 'shop:' });
      stores.push(store);
      return { store: store.idempotency, orders: { store: store.orders } };
    },
    async () => void (await Promise.all(stores.map((store) => store.close()))),
  );
  return {
    ...started,
    stores,
    async connected() {
      const until = Date.now() + READY_WITHIN_MS;
      while (stores.some((store) => store.client.status !== 'ready')) {
        if (Date.now() > until) throw new Error(`the instances did not reconnect to Redis within ${READY_WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
      }
    },
  };
}
