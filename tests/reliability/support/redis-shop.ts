import type { Logger, MerchantOrder, PaymentClientOptions } from '@paymount/core';
import { createRedisStores, type RedisStores } from '@paymount/redis';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { startMerchantApp, type AdapterName, type MerchantApp } from './apps';
import { Shop, shopOptions } from './shop';

/** One merchant deployed as several app instances, their stores on one Redis, against one sandbox. */
export interface RedisShop {
  sandbox: Sandbox;
  shop: Shop;
  instances: MerchantApp[];
  /** Each instance's Redis stores, on its own connection. */
  stores: RedisStores[];
  /** Resolves once every instance's connection is ready again (after a Redis restart). */
  connected(): Promise<void>;
  close(): Promise<void>;
}

export interface RedisShopOptions {
  redisUrl: string;
  /** One instance per entry, of that framework. */
  adapters: readonly AdapterName[];
  sandbox?: SandboxOptions;
  client?: Partial<PaymentClientOptions>;
  logger?: Logger;
  /** Whether an order's payments carry a notifyUrl (the instance's own webhook route); default every order. */
  notifies?: (order: MerchantOrder) => boolean;
}

const READY_POLL_MS = 50;
const READY_WITHIN_MS = 10_000;

export async function startRedisShop(options: RedisShopOptions): Promise<RedisShop> {
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, ...options.sandbox });
  const shop = new Shop();
  const stores: RedisStores[] = [];
  const instances: MerchantApp[] = [];
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(stores.map((store) => store.close()));
    await sandbox.close();
  };
  try {
    for (const adapter of options.adapters) {
      const store = createRedisStores({ connection: options.redisUrl, keyPrefix: 'shop:' });
      stores.push(store);
      let routesUrl = '';
      const base = shopOptions({ sandbox, shop, routesUrl: () => routesUrl, ...(options.client ? { client: options.client } : {}), ...(options.logger ? { logger: options.logger } : {}) });
      const { notifies } = options;
      const app = await startMerchantApp(adapter, {
        ...base,
        store: store.idempotency,
        orders: { store: store.orders },
        ...(notifies ? { notifyUrl: (order: MerchantOrder) => (notifies(order) ? `${routesUrl}/webhook` : undefined) } : {}),
      });
      routesUrl = app.routesUrl;
      instances.push(app);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    sandbox,
    shop,
    instances,
    stores,
    async connected() {
      const until = Date.now() + READY_WITHIN_MS;
      while (stores.some((store) => store.client.status !== 'ready')) {
        if (Date.now() > until) throw new Error(`the instances did not reconnect to Redis within ${READY_WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
      }
    },
    close,
  };
}
