import { paymentRoute, type PaymentRoute } from '@paymount/react-router';
import { ConfigError } from '../src/config';
import { announce, closeShopServices, keepReconciling, openShopServices, type ShopServices } from '../src/shop-services';

/** The running shop: what the pages run on, and paymount's resource route over its options. */
export interface Shop {
  services: ShopServices;
  payments: PaymentRoute;
}

async function start(): Promise<Shop> {
  let services: ShopServices;
  try {
    // The NODE_ENV set before react-router-serve set its own (shop-env.js); under `react-router dev`, the environment's.
    services = await openShopServices({ ...process.env, NODE_ENV: process.env['SHOP_NODE_ENV'] ?? process.env.NODE_ENV });
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack. Either way the shop cannot run.
    console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    process.exit(1);
  }
  const payments = paymentRoute(services.payments);
  keepReconciling(() => Promise.resolve(payments.paymentRoutes));
  announce(services);
  // react-router-serve closes its own server on these signals; the sandbox's and the database would keep the
  // process up. `react-router dev` ends the process itself.
  if (!import.meta.env.DEV) for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => void closeShopServices(services, payments.paymentRoutes));
  return { services, payments };
}

// Kept on globalThis: `react-router dev` loads this module again on a change, and the database takes one owner.
const RUNNING = Symbol.for('paymount-shop.running');
const running = globalThis as typeof globalThis & { [RUNNING]?: Promise<Shop> };

/** The shop, started once per process. */
export function shop(): Promise<Shop> {
  return (running[RUNNING] ??= start());
}

// Started as the server build loads, before the first request: a missing or bad setting stops the server at once.
void shop();
