import type { PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { createApp } from './app.js';
import { readConfig, type ShopConfig } from './config.js';
import { openDatabase, type ShopDatabase } from './database.js';
import { Shop, type ShopResponse } from './shop.js';

/** What a template's `createApp` gives back: the framework's app as `Bun.serve`'s fetch handler, and paymount's routes behind it. */
export interface ShopApp {
  fetch(request: Request): Response | Promise<Response>;
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

/** A shop page's answer as the Web `Response` both Hono and Elysia send. */
export function respond(answer: ShopResponse): Response {
  return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.headers });
}

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

/** Until the app is made, a request is told to come back: the server listens before the sandbox and the database are up. */
function starting(): Response {
  return new Response('The shop is starting.', { status: 503, headers: { 'retry-after': '1' } });
}

function listen(port: number, hostname: string): Bun.Server<undefined> {
  try {
    return Bun.serve({ port, hostname, fetch: starting });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') throw new Error(`Port ${port} on ${hostname} is in use: set PORT to another one.`, { cause: error });
    throw error;
  }
}

/**
 * Starts the shop on Bun: listens first, so its own URL (for the webhook and return URLs) is known even on
 * port 0; then the sandbox (in development) and the database; then the framework's app, swapped in
 * with `server.reload`.
 */
export async function startShop(options: StartOptions = {}): Promise<RunningShop> {
  const config = options.config ?? readConfig();
  const server = listen(config.port, config.host);
  let sandbox: Sandbox | undefined;
  let database: ShopDatabase | undefined;
  let app: ShopApp | undefined;
  let reconciling: ReturnType<typeof setInterval> | undefined;
  const close = async () => {
    clearInterval(reconciling);
    // true: browsers keep idle connections open, which would hold the stop forever.
    await server.stop(true);
    await app?.close();
    await sandbox?.close();
    await database?.close();
  };
  try {
    if (config.service.kind === 'sandbox') sandbox = await startSandbox({ allowLocalNotifyUrl: true, merchantName: 'Paymount shop', ...options.sandbox });
    database = await openDatabase(config);
    const host = server.hostname ?? config.host;
    const url = config.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
    const shop = new Shop({ config, sandbox, db: database.db, publicUrl: url });
    const made = await createApp(shop);
    app = made;
    server.reload({ fetch: (request) => made.fetch(request) });
    reconciling = setInterval(() => {
      made.paymentRoutes.reconcile().catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
    }, RECONCILE_EVERY_MS);
    reconciling.unref();
    return { url, sandbox, shop, database: database.describe, close };
  } catch (error) {
    await close();
    throw error;
  }
}
