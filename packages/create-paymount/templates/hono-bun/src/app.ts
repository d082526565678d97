import type { ShopApp } from './server.js';
import { shopApp } from './shop-app.js';
import type { Shop } from './shop.js';

/** The shop's Hono app (src/shop-app.ts); `Bun.serve` serves its `fetch`. */
export function createApp(shop: Shop): ShopApp {
  const { app, paymentRoutes } = shopApp(shop);
  return { fetch: app.fetch, paymentRoutes, close: () => paymentRoutes.close() };
}
