import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PaymentRoutes } from '@paymount/core';
import { paymentApp } from '@paymount/hono';
import { MOUNT } from './payments.js';
import type { Shop, ShopResponse } from './shop.js';

function respond(answer: ShopResponse): Response {
  return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * The shop in Hono, whatever serves it (@hono/node-server, `Bun.serve`): paymount's routes at /payments,
 * the shop's pages and forms beside them.
 */
export function shopApp(shop: Shop): { app: Hono; paymentRoutes: PaymentRoutes } {
  const app = new Hono();
  const payments = paymentApp(shop.payments);
  app.route(MOUNT, payments);

  const form = bodyLimit({ maxSize: 2048 });
  app.get('/', () => respond(shop.home()));
  app.post('/orders', form, async (c) => respond(await shop.placeOrder(await c.req.parseBody())));
  app.get('/orders/:id', async (c) => respond(await shop.order(c.req.param('id'), c.req.header('cookie'))));
  app.post('/orders/:id/refund', async (c) => respond(await shop.refund(c.req.param('id'), c.req.header('cookie'), payments.paymentRoutes.client)));
  app.get('/login', (c) => respond(shop.loginForm(c.req.query('next'))));
  app.post('/login', form, async (c) => respond(shop.login(await c.req.parseBody())));
  app.get('/assets/:name', (c) => respond(shop.asset(c.req.param('name'))));

  return { app, paymentRoutes: payments.paymentRoutes };
}
