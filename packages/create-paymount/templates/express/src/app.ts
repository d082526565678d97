import express, { type Response } from 'express';
import { paymentRouter } from '@paymount/express';
import { MOUNT } from './payments.js';
import type { ShopApp } from './server.js';
import type { Shop, ShopResponse } from './shop.js';

function send(res: Response, answer: ShopResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

/** The shop in Express: paymount's router at /payments, the shop's pages and forms beside it. */
export function createApp(shop: Shop): ShopApp {
  const app = express();
  app.disable('x-powered-by');

  const payments = paymentRouter(shop.payments);
  // Before any body parser: the webhook route verifies the raw bytes.
  app.use(MOUNT, payments);

  const form = express.urlencoded({ extended: false, limit: '2kb' });
  const fields = (body: unknown) => (body ?? {}) as Record<string, unknown>;
  app.get('/', (_req, res) => send(res, shop.home()));
  app.post('/orders', form, async (req, res) => send(res, await shop.placeOrder(fields(req.body))));
  app.get('/orders/:id', async (req, res) => send(res, await shop.order(req.params.id, req.headers.cookie)));
  app.post('/orders/:id/refund', async (req, res) => send(res, await shop.refund(req.params.id, req.headers.cookie, payments.paymentRoutes.client)));
  app.get('/login', (req, res) => send(res, shop.loginForm(req.query['next'])));
  app.post('/login', form, (req, res) => send(res, shop.login(fields(req.body))));
  app.get('/assets/:name', (req, res) => send(res, shop.asset(req.params.name)));

  return { listener: app, paymentRoutes: payments.paymentRoutes, close: () => payments.paymentRoutes.close() };
}
