import type { PaymentRoutesOptions } from '@paymount/core';
import { paymentRouteHandlers, type PaymentRouteHandlers } from '@paymount/next';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { readConfig, type ShopConfig } from './config';
import { openDatabase } from './database';
import { Orders } from './orders';
import { paymentOptions } from './payments';
import { StaffLogin } from './staff';

export const SHOP_NAME = 'Paymount shop';

/** What the browser's wallet button loads: the sandbox's test wallet, or the wallet's client library. */
export type WalletSource = { sandbox: string } | { environment: 'TEST' | 'PRODUCTION'; scriptUrl: string };

/** The shop's server side, one per server process. */
export interface Shop {
  /** Where shoppers and the service reach the shop, without a trailing slash. */
  url: string;
  /** The embedded sandbox, in development. */
  sandbox: Sandbox | undefined;
  /** Where the orders are, in words. */
  database: string;
  orders: Orders;
  /** paymount's route options, the same as every template's (payments.ts). */
  payments: PaymentRoutesOptions;
  /** The routes' client (refunds) and reconciliation; the payment route file serves requests with its own. */
  routes: PaymentRouteHandlers;
  staff: StaffLogin;
  wallet: WalletSource;
}

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

function urlOf(config: ShopConfig): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  // `next dev` sets PORT to the port it listens on, before this runs.
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
}

async function start(): Promise<Shop> {
  const config = readConfig();
  const url = urlOf(config);
  const sandbox = config.service.kind === 'sandbox' ? await startSandbox({ allowLocalNotifyUrl: true, merchantName: SHOP_NAME }) : undefined;
  try {
    const database = await openDatabase(config);
    const payments = paymentOptions({ config, sandbox, db: database.db, publicUrl: url, shopName: SHOP_NAME });
    const routes = paymentRouteHandlers(() => payments);
    const reconciling = setInterval(() => {
      routes
        .getPaymentRoutes()
        .then((ready) => ready.reconcile())
        .catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
    }, RECONCILE_EVERY_MS);
    reconciling.unref();
    return {
      url,
      sandbox,
      database: database.describe,
      orders: new Orders(database.db),
      payments,
      routes,
      staff: new StaffLogin(config.staffPassword, url.startsWith('https:')),
      wallet: sandbox ? { sandbox: sandbox.url } : { environment: config.walletEnvironment, scriptUrl: config.walletScriptUrl },
    };
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}

// Next.js bundles instrumentation.ts, each route and each page apart, each with its own copy of this
// module: the one shop of the process (its sandbox, its PGlite folder) is kept on globalThis.
const SHOP = Symbol.for('paymount-shop');
type ShopHolder = { [SHOP]?: Promise<Shop> };

/** The process's shop, started by its first caller (instrumentation.ts, at server start). */
export function shop(): Promise<Shop> {
  const holder = globalThis as ShopHolder;
  holder[SHOP] ??= start().catch((error: unknown) => {
    // The next caller tries again: a setting fixed, a port or a folder freed.
    delete holder[SHOP];
    throw error;
  });
  return holder[SHOP];
}
