import type { Logger, MerchantOrder, PaymentClientOptions, PaymentRoutesOptions } from '@paymount/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { startMerchantApp, type AdapterName, type MerchantApp } from './apps';
import { Shop, shopOptions, type SandboxView } from './shop';

/** How a shop deployed as several instances over one shared store (Redis, PostgreSQL) is started. */
export interface SharedStoreShopOptions {
  /** One instance per entry, of that framework. */
  adapters: readonly AdapterName[];
  sandbox?: SandboxOptions;
  client?: Partial<PaymentClientOptions>;
  logger?: Logger;
  /** Whether an order's payments carry a notifyUrl (the instance's own webhook route); default every order. */
  notifies?: (order: MerchantOrder) => boolean;
}

/** Such a shop, running: one sandbox, the merchant's orders, its instances. */
export interface SharedStoreShop {
  sandbox: Sandbox;
  shop: Shop;
  instances: MerchantApp[];
  close(): Promise<void>;
}

export interface SharedStoreInstanceOptions extends Omit<SharedStoreShopOptions, 'adapters' | 'sandbox'> {
  sandbox: SandboxView;
  shop: Shop;
  adapter: AdapterName;
  /** The instance's stores (and handlers, in place of the shop's own), on the store every instance shares. */
  routes: Pick<PaymentRoutesOptions, 'store' | 'orders' | 'on'>;
}

/** One app instance of a shop deployed several times over one shared store. */
export async function startSharedStoreInstance(options: SharedStoreInstanceOptions): Promise<MerchantApp> {
  const { sandbox, shop, notifies } = options;
  let routesUrl = '';
  const base = shopOptions({ sandbox, shop, routesUrl: () => routesUrl, ...(options.client ? { client: options.client } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  const app = await startMerchantApp(options.adapter, {
    ...base,
    ...options.routes,
    ...(notifies ? { notifyUrl: (order: MerchantOrder) => (notifies(order) ? `${routesUrl}/webhook` : undefined) } : {}),
  });
  routesUrl = app.routesUrl;
  return app;
}

/**
 * Starts the sandbox and one instance per adapter, each on the routes
 * `routesFor` gives it (its own connection to the shared store); `closeStores`
 * closes those connections once the instances have stopped. On a failure
 * while starting, what was started is closed again.
 */
export async function startSharedStoreShop(
  options: SharedStoreShopOptions,
  routesFor: (adapter: AdapterName) => Promise<SharedStoreInstanceOptions['routes']>,
  closeStores: () => Promise<void>,
  shop = new Shop(),
): Promise<SharedStoreShop> {
  const { adapters, sandbox: sandboxOptions, ...shared } = options;
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, ...sandboxOptions });
  const instances: MerchantApp[] = [];
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await closeStores();
    await sandbox.close();
  };
  try {
    for (const adapter of adapters) instances.push(await startSharedStoreInstance({ sandbox, shop, adapter, ...shared, routes: await routesFor(adapter) }));
  } catch (error) {
    await close();
    throw error;
  }
  return { sandbox, shop, instances, close };
}
