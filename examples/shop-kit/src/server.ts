import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger, PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { readShopConfig, type ShopConfig } from './config';
import { consoleLogger } from './console-logger';
import { Shop } from './shop';

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
  const server = await listen(config.port, config.host);
  let sandbox: Sandbox | undefined;
  let app: ShopApp | undefined;
  let reconciling: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(reconciling);
    await stopServer(server);
    await app?.close();
    await sandbox?.close();
  };
  try {
    if (config.service.kind === 'sandbox') sandbox = await startSandbox({ allowLocalNotifyUrl: true, merchantName: name, ...options.sandbox });
    const url = config.publicUrl ?? urlOf(server);
    const shop = new Shop({ name, config, publicUrl: url, sandbox, logger: options.logger ?? consoleLogger() });
    app = await build(shop);
    server.on('request', app.listener);
    // Settles the orders whose webhook was lost (or never sent): each outcome reaches the shop's handler once.
    const { paymentRoutes } = app;
    reconciling = setInterval(() => {
      paymentRoutes.reconcile().catch((error: unknown) => shop.logger.error({ err: error }, 'payment reconciliation failed; the next run tries again'));
    }, options.reconcileEveryMs ?? RECONCILE_EVERY_MS);
    reconciling.unref();
    let closing: Promise<void> | undefined;
    return { url, shop, sandbox, close: () => (closing ??= close()) };
  } catch (error) {
    await close();
    throw error;
  }
}
