import { paymentHandler } from '@paymount/nuxt';
import { openShopServices, type ShopServices } from '../../src/shop-services.js';

let started: Promise<ShopServices> | undefined;

/** Once, by server/plugins/shop.ts as the server starts: the sandbox (in development) and the database. */
export function startShop(): Promise<ShopServices> {
  return (started ??= openShopServices());
}

/** What the pages' routes and paymount's routes run on, once started. */
export function useShop(): Promise<ShopServices> {
  if (!started) throw new Error('The shop has not started: server/plugins/shop.ts starts it.');
  return started;
}

/** paymount's routes (server/routes/payments/[...].ts), made on their first request from the running shop's options. */
export const payments = paymentHandler(async () => (await useShop()).payments);
