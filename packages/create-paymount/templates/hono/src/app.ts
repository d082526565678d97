import { getRequestListener } from '@hono/node-server';
import type { ShopApp } from './server.js';
import { shopApp } from './shop-app.js';
import type { Shop } from './shop.js';

/** The shop's Hono app (src/shop-app.ts) served by @hono/node-server. */
export function createApp(shop: Shop): ShopApp {
  const { app, paymentRoutes } = shopApp(shop);
  return { listener: getRequestListener(app.fetch), paymentRoutes, close: () => paymentRoutes.close() };
}
