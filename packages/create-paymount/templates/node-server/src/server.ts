import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { createApp } from './app.js';
import { readConfig, type ShopConfig } from './config.js';
import { openDatabase, type ShopDatabase } from './database.js';
import { Shop } from './shop.js';

/** What a template's `createApp` gives back: the framework's app as a Node listener, and paymount's routes behind it. */
export interface ShopApp {
  listener: RequestListener;
  paymentRoutes: PaymentRoutes;
  close(): Promise<void>;
}

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

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

function listen(port: number, host: string): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is in use: set PORT to another one.`) : error),
    );
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Starts the shop: listens first, so its own URL (for the webhook and return URLs) is known even on
 * port 0; then the sandbox (in development) and the database; then the framework's app.
 */
export async function startShop(options: StartOptions = {}): Promise<RunningShop> {
  const config = options.config ?? readConfig();
  const server = await listen(config.port, config.host);
  let sandbox: Sandbox | undefined;
  let database: ShopDatabase | undefined;
  let app: ShopApp | undefined;
  let reconciling: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(reconciling);
    // Browsers keep idle connections open, which would hold close() forever.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await app?.close();
    await sandbox?.close();
    await database?.close();
  };
  try {
    if (config.service.kind === 'sandbox') sandbox = await startSandbox({ allowLocalNotifyUrl: true, merchantName: 'Paymount shop', ...options.sandbox });
    database = await openDatabase(config);
    const { address, port } = server.address() as AddressInfo;
    const url = config.publicUrl ?? `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    const shop = new Shop({ config, sandbox, db: database.db, publicUrl: url });
    app = await createApp(shop);
    server.on('request', app.listener);
    const { paymentRoutes } = app;
    reconciling = setInterval(() => {
      paymentRoutes.reconcile().catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
    }, RECONCILE_EVERY_MS);
    reconciling.unref();
    return { url, sandbox, shop, database: database.describe, close };
  } catch (error) {
    await close();
    throw error;
  }
}
