import { paymentRouteHandlers, type PaymentRouteHandlers } from '@paymount/next';
import { keepReconciling, openShopServices, type ShopServices } from './shop-services';

export { SHOP_NAME } from './shop-services';

/** The shop's server side, one per server process. */
export interface Shop extends ShopServices {
  /** The routes' client (refunds) and reconciliation; the payment route file serves requests with its own. */
  routes: PaymentRouteHandlers;
}

async function start(): Promise<Shop> {
  const services = await openShopServices();
  const routes = paymentRouteHandlers(() => services.payments);
  keepReconciling(() => routes.getPaymentRoutes());
  return { ...services, routes };
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
