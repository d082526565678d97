import { Elysia, t } from 'elysia';
import { paymentPlugin } from '@paymount/elysia';
import { MOUNT } from './payments.js';
import { respond, type ShopApp } from './server.js';
import type { Shop } from './shop.js';

/** The shop in Elysia: paymount's plugin at /payments, the shop's pages and forms beside it; `Bun.serve` serves its `fetch`. */
export function createApp(shop: Shop): ShopApp {
  const app = new Elysia()
    .use(paymentPlugin({ prefix: MOUNT, ...shop.payments }))
    .get('/', () => respond(shop.home()))
    .post('/orders', async ({ body }) => respond(await shop.placeOrder(body)), { body: t.Object({ sku: t.String({ maxLength: 64 }) }) })
    .get('/orders/:id', async ({ params, headers }) => respond(await shop.order(params.id, headers['cookie'])))
    .post('/orders/:id/refund', async ({ params, headers, paymentRoutes }) => respond(await shop.refund(params.id, headers['cookie'], paymentRoutes.client)))
    .get('/login', ({ query }) => respond(shop.loginForm(query['next'])))
    .post('/login', ({ body }) => respond(shop.login(body)), { body: t.Object({ password: t.String({ maxLength: 256 }), next: t.Optional(t.String({ maxLength: 512 })) }) })
    .get('/assets/:name', ({ params }) => respond(shop.asset(params.name)));

  const { paymentRoutes } = app.decorator;
  return { fetch: app.fetch, paymentRoutes, close: () => paymentRoutes.close() };
}
