import { paymentHandlers } from '@paymount/tanstack-start';
import { announce, closeShopServices, keepReconciling, openShopServices, type ShopServices } from './shop-services.js';

/** paymount's routes (src/routes/payments/$.ts), made on their first request from the running shop's options. */
export const payments = paymentHandlers(async () => (await shop()).payments);

let started: Promise<ShopServices> | undefined;

/**
 * What the pages, the server functions and paymount's routes run on: the sandbox in development, and the
 * database. Started by src/server.ts, which the production server loads on its first request.
 */
export function shop(): Promise<ShopServices> {
  return (started ??= openShopServices().then((services) => {
    announce(services);
    keepReconciling(() => payments.getPaymentRoutes());
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        payments
          .getPaymentRoutes()
          .then((routes) => closeShopServices(services, routes))
          .then(() => process.exit(0), () => process.exit(1));
      });
    }
    return services;
  }));
}
