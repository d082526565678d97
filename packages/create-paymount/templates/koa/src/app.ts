import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { mountPaymentRoutes } from '@paymount/koa';
import { MOUNT } from './payments.js';
import type { ShopApp } from './server.js';
import type { Shop, ShopResponse } from './shop.js';

function send(ctx: Context, answer: ShopResponse): void {
  // Status first: Koa otherwise turns an assigned body into a 200.
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = answer.body;
}

/** The shop in Koa: paymount's routes at /payments on the app's @koa/router, the shop's pages and forms beside them. */
export function createApp(shop: Shop): ShopApp {
  const app = new Koa();
  const router = new Router();

  // The body parser is only on the shop's forms: the webhook route verifies the raw bytes.
  const { paymentRoutes } = mountPaymentRoutes(router, MOUNT, shop.payments);

  const form = bodyParser({ enableTypes: ['form'], formLimit: '2kb' });
  const fields = (ctx: Context) => (ctx.request.body ?? {}) as Record<string, unknown>;
  router.get('/', (ctx) => send(ctx, shop.home()));
  router.post('/orders', form, async (ctx) => send(ctx, await shop.placeOrder(fields(ctx))));
  router.get('/orders/:id', async (ctx) => send(ctx, await shop.order(ctx.params['id']!, ctx.get('cookie'))));
  router.post('/orders/:id/refund', async (ctx) => send(ctx, await shop.refund(ctx.params['id']!, ctx.get('cookie'), paymentRoutes.client)));
  router.get('/login', (ctx) => send(ctx, shop.loginForm(ctx.query['next'])));
  router.post('/login', form, (ctx) => send(ctx, shop.login(fields(ctx))));
  router.get('/assets/:name', (ctx) => send(ctx, shop.asset(ctx.params['name']!)));

  app.use(router.routes()).use(router.allowedMethods());
  return { listener: app.callback(), paymentRoutes, close: () => paymentRoutes.close() };
}
