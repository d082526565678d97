import { Hono, type Context } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshOrderId, resolveConformanceOrder } from '../../../tools/conformance/fixtures';
import { postJson, postRaw } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture, type Listening } from '../../../tools/adapter-testing';
import { paymentApp, type PaymentApp } from '../src';
import { serveHono } from './support';

type ShopEnv = { Variables: { shopper: string } };

let fixture: AdapterFixture;
let server: Listening;
let payments: PaymentApp<ShopEnv>;
const seen: Array<{ hook: string; shopper: string | undefined; path: string }> = [];
const ownerOf = new Map<string, string>();

beforeAll(async () => {
  fixture = await startAdapterFixture();
  const app = new Hono<ShopEnv>();
  // The app's own session middleware, before the routes.
  app.use(async (c, next) => {
    c.set('shopper', c.req.header('x-shopper') ?? 'anonymous');
    await next();
  });
  const record = (hook: string, c: Context<ShopEnv> | undefined) => seen.push({ hook, shopper: c?.get('shopper'), path: c?.req.path ?? '' });
  payments = paymentApp<ShopEnv>({
    ...fixture.options,
    // Only the shopper who owns the order may pay it.
    resolveOrder: (orderId, ctx) => {
      record('resolveOrder', ctx.context);
      return ownerOf.get(orderId) === ctx.context.get('shopper') ? resolveConformanceOrder(orderId) : null;
    },
    on: { 'payment.succeeded': (_event, ctx) => void record('payment.succeeded', ctx.context) },
  });
  app.route('/payments', payments);
  server = await serveHono(app);
  fixture.mountedAt(`${server.url}/payments`);
});
afterAll(async () => {
  await server?.close();
  await payments?.paymentRoutes.close();
  await fixture?.close();
});

it("hands resolveOrder the app's Hono Context, with what the app's middleware set on it", async () => {
  const orderId = freshOrderId();
  ownerOf.set(orderId, 'alice');
  seen.length = 0;
  expect((await postJson(`${server.url}/payments/checkout`, { orderId }, { 'x-shopper': 'mallory' })).status).toBe(404);
  expect((await postJson(`${server.url}/payments/checkout`, { orderId }, { 'x-shopper': 'alice' })).status).toBe(201);
  expect(seen).toEqual([
    { hook: 'resolveOrder', shopper: 'mallory', path: '/payments/checkout' },
    { hook: 'resolveOrder', shopper: 'alice', path: '/payments/checkout' },
  ]);
});

it("hands an event handler the Context of the webhook delivery's request", async () => {
  seen.length = 0;
  const delivery = fixture.delivery(`TX-context-${freshOrderId()}`);
  expect((await postRaw(`${server.url}/payments/webhook`, delivery.body, delivery.headers)).status).toBe(200);
  expect(seen).toEqual([{ hook: 'payment.succeeded', shopper: 'anonymous', path: '/payments/webhook' }]);
});
