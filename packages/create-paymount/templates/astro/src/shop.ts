import type { APIContext } from 'astro';
import { paymentEndpoints } from '@paymount/astro';
import { announce, closeShopServices, keepReconciling, openShopServices, type ShopServices } from './shop-services.js';

/** paymount's routes, made on their first request from the running shop's options. */
export const payments = paymentEndpoints(async (context) => (await shop(context)).payments);

let started: Promise<ShopServices> | undefined;

/**
 * What the pages and paymount's routes run on, started by the first request (src/middleware.ts): the
 * sandbox in development, and the database. Astro's server has no hook that runs before it; server.mjs
 * makes that first request as soon as it listens.
 */
export function shop(first: APIContext): Promise<ShopServices> {
  return (started ??= openShopServices().then((services) => {
    announce(services);
    // The options do not depend on the request: the first one's context makes the routes for every later use.
    const routes = () => payments.getPaymentRoutes(first);
    keepReconciling(routes);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        routes()
          .then((each) => closeShopServices(services, each))
          .then(() => process.exit(0), () => process.exit(1));
      });
    }
    return services;
  }));
}
