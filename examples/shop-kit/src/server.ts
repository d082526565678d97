import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger, PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { readShopConfig, type ShopConfig } from './config';
import { consoleLogger } from './console-logger';
import { Shop } from './shop';
import { migrateShopDatabase, openShopDatabase, type ShopDatabase } from './shop-database';

export type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;

export interface StartShopOptions {
  /** Default: read from the environment (see `.env.example`). */
  config?: ShopConfig;
  /** Default: one line per entry on the console. */
  logger?: Logger;
  /** Extra options for the embedded sandbox, e.g. short webhook retry delays in tests. */
  sandbox?: SandboxOptions;
  /** How often payments no webhook reported are reconciled. Default 60 000 (a minute). */
  reconcileEveryMs?: number;
  /**
   * The folder PGlite keeps the orders (and paymount's stores) in when
   * `config.databaseUrl` names no PostgreSQL server. Default: in memory, lost
   * when the shop stops.
   */
  dataDir?: string;
}

/** The framework app a shop builds around a ready `Shop`. */
export interface ShopApp {
  listener: RequestListener;
  /** The payment routes object behind the app: the shop runs their reconciliation on a schedule. */
  paymentRoutes: PaymentRoutes;
  /** Releases what the app holds (the payment routes, a Nest application). */
  close(): Promise<void>;
}

export interface RunningShop {
  /** Where to open the shop, without a trailing slash. */
  url: string;
  shop: Shop;
  /** The embedded sandbox, when the shop runs against it. */
  sandbox: Sandbox | undefined;
  /** Where the orders are kept, in words for the console. */
  database: string;
  close(): Promise<void>;
}

const RECONCILE_EVERY_MS = 60_000;

function listen(port: number, host: string): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is in use; set PORT to another port.`) : error);
    });
    server.listen(port, host, () => resolve(server));
  });
}

function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Browsers keep idle connections open; they would hold close() forever.
    server.closeAllConnections();
  });
}

/**
 * Starts a shop: listens first, so the shop's own URL (for `notifyUrl` and
 * `merchantReturnUrl`) is known even on port 0, then starts the embedded
 * sandbox when configured for it, builds the framework app and attaches it.
 */
export async function startShopServer(
  name: string,
  options: StartShopOptions,
  build: (shop: Shop) => ShopApp | Promise<ShopApp>,
): Promise<RunningShop> {
  const config = options.config ?? readShopConfig();
  const logger = options.logger ?? consoleLogger();
  const server = await listen(config.port, config.host);
  let sandbox: Sandbox | undefined;
  let database: ShopDatabase | undefined;
  let app: ShopApp | undefined;
  let reconciling: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(reconciling);
    await stopServer(server);
    await app?.close();
    await sandbox?.close();
    await database?.close();
  };
  try {
    // The sandbox and the database start side by side (PGlite's start is most of a shop's); each is kept as it starts, so a failure of the other closes it.
    const sandboxReady = config.service.kind === 'sandbox'
      ? startSandbox({ allowLocalNotifyUrl: true, merchantName: name, ...options.sandbox }).then((started) => (sandbox = started))
      : undefined;
    const location = config.databaseUrl === undefined ? { kind: 'pglite' as const, dataDir: options.dataDir } : { kind: 'postgres' as const, url: config.databaseUrl };
    const databaseReady = openShopDatabase(location, logger).then(async (opened) => {
      database = opened;
      await migrateShopDatabase(opened);
      return opened;
    });
    for (const result of await Promise.allSettled([sandboxReady, databaseReady])) if (result.status === 'rejected') throw result.reason;
    const { db, describe } = await databaseReady;
    const url = config.publicUrl ?? urlOf(server);
    const shop = new Shop({ name, config, publicUrl: url, sandbox, logger, db });
    app = await build(shop);
    server.on('request', app.listener);
    // Settles the orders whose webhook was lost (or never sent): each outcome reaches the shop's handler once.
    const { paymentRoutes } = app;
    reconciling = setInterval(() => {
      paymentRoutes.reconcile().catch((error: unknown) => shop.logger.error({ err: error }, 'payment reconciliation failed; the next run tries again'));
    }, options.reconcileEveryMs ?? RECONCILE_EVERY_MS);
    reconciling.unref();
    let closing: Promise<void> | undefined;
    return { url, shop, sandbox, database: describe, close: () => (closing ??= close()) };
  } catch (error) {
    await close();
    throw error;
  }
}

