import type { PaymentRoutes, PaymentRoutesOptions } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
// Extensionless: Turbopack (the Next.js shop) resolves no `.js` import to its `.ts` file.
import { readConfig, type ShopConfig } from './config';
import { openDatabase, type ShopDatabase } from './database';
import { Orders } from './orders';
import { paymentOptions } from './payments';
import { StaffLogin } from './staff';

export const SHOP_NAME = 'Paymount shop';

/** What the order page's wallet button loads: the sandbox's test wallet, or the wallet's client library. */
export type PageWallet = { sandbox: string } | { environment: 'TEST' | 'PRODUCTION'; scriptUrl: string };

/** What the shop's pages and paymount's routes run on, made once when the server starts. */
export interface ShopServices {
  config: ShopConfig;
  /** The embedded sandbox, in development. */
  sandbox: Sandbox | undefined;
  database: ShopDatabase;
  orders: Orders;
  staff: StaffLogin;
  /** Where the shop is reached, without a trailing slash. */
  publicUrl: string;
  wallet: PageWallet;
  /** paymount's route options, which the framework's adapter takes as they are. */
  payments: PaymentRoutesOptions;
}

/** The sandbox (in development) and the database, from the environment's settings. */
export async function openShopServices(env: NodeJS.ProcessEnv = process.env): Promise<ShopServices> {
  const config = readConfig(env);
  const sandbox = config.service.kind === 'sandbox' ? await startSandbox({ allowLocalNotifyUrl: true, merchantName: SHOP_NAME }) : undefined;
  let database: ShopDatabase;
  try {
    database = await openDatabase(config);
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  // The framework's server is told the same origin (production-env.js).
  const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  return {
    config,
    sandbox,
    database,
    orders: new Orders(database.db),
    staff: new StaffLogin(config.staffPassword, publicUrl.startsWith('https:')),
    publicUrl,
    wallet: sandbox ? { sandbox: sandbox.url } : { environment: config.walletEnvironment, scriptUrl: config.walletScriptUrl },
    payments: paymentOptions({ config, sandbox, db: database.db, publicUrl, shopName: SHOP_NAME }),
  };
}

/** Where the shop, the dashboard and the orders are, for the console. */
export function announce(services: ShopServices): void {
  console.log(`Shop:      ${services.publicUrl}`);
  if (services.sandbox) {
    console.log(`Dashboard: ${services.sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
    console.log(`Refunds:   ${services.publicUrl}/login (the staff password: STAFF_PASSWORD, "staff" when not set)`);
  }
  console.log(`Orders:    ${services.database.describe}`);
}

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

/** Asks the service about payments left open, every minute, for as long as the process runs. */
export function keepReconciling(routes: () => Promise<PaymentRoutes>): void {
  setInterval(() => {
    routes()
      .then((each) => each.reconcile())
      .catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
  }, RECONCILE_EVERY_MS).unref();
}

/** Once the server has stopped taking requests: paymount's routes, then the sandbox and the database. */
export async function closeShopServices(services: ShopServices, routes: PaymentRoutes): Promise<void> {
  await routes.close();
  await services.sandbox?.close();
  await services.database.close();
}
