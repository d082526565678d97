import type { PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import type { ShopConfig } from './config.js';
import { openDatabase, type ShopDatabase } from './database.js';
import { Shop } from './shop.js';

export interface StartOptions {
  /** Default: from the environment. */
  config?: ShopConfig;
  /** The embedded sandbox's own options (tests make its webhook retries short). */
  sandbox?: SandboxOptions;
}

export interface RunningShop {
  url: string;
  /** The embedded sandbox, in development. */
  sandbox: Sandbox | undefined;
  shop: Shop;
  /** Where the orders are, in words. */
  database: string;
  close(): Promise<void>;
}

/** The server the shop listens on, whichever runtime's: where it listens, and its stop. */
export interface Listening {
  host: string;
  port: number;
  /** Stops taking requests, idle connections too: browsers keep theirs open, which would hold the stop forever. */
  stop(): Promise<void>;
}

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

/**
 * What runs behind a server that already listens, so the shop's own URL (for the webhook and return
 * URLs) is known even on port 0: the sandbox (in development), the database, then the framework's app,
 * which `serve` makes and puts behind the server.
 */
export async function startBehind(
  server: Listening,
  config: ShopConfig,
  options: StartOptions,
  serve: (shop: Shop) => Promise<{ paymentRoutes: PaymentRoutes; close(): Promise<void> }>,
): Promise<RunningShop> {
  let sandbox: Sandbox | undefined;
  let database: ShopDatabase | undefined;
  let app: { close(): Promise<void> } | undefined;
  let reconciling: ReturnType<typeof setInterval> | undefined;
  const close = async () => {
    clearInterval(reconciling);
    await server.stop();
    await app?.close();
    await sandbox?.close();
    await database?.close();
  };
  try {
    if (config.service.kind === 'sandbox') sandbox = await startSandbox({ allowLocalNotifyUrl: true, merchantName: 'Paymount shop', ...options.sandbox });
    database = await openDatabase(config);
    const url = config.publicUrl ?? `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`;
    const shop = new Shop({ config, sandbox, db: database.db, publicUrl: url });
    const served = await serve(shop);
    app = served;
    reconciling = setInterval(() => {
      served.paymentRoutes.reconcile().catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
    }, RECONCILE_EVERY_MS);
    reconciling.unref();
    return { url, sandbox, shop, database: database.describe, close };
  } catch (error) {
    await close();
    throw error;
  }
}
