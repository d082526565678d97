import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import formBody from '@fastify/formbody';
import { paymentPlugin } from '@paymount/fastify';
import { MOUNT } from './payments.js';
import type { ShopApp } from './server.js';
import type { Shop, ShopResponse } from './shop.js';

function send(reply: FastifyReply, answer: ShopResponse): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/** A post without a body (or with JSON's `null`) leaves none: the shop reads it as an empty form. */
const fields = (body: unknown) => (body ?? {}) as Record<string, unknown>;

type OrderParams = { Params: { id: string } };

/** The shop's pages and forms, a plugin of their own: the form parser it registers stays inside it. */
function shopRoutes(shop: Shop) {
  return async (routes: FastifyInstance): Promise<void> => {
    await routes.register(formBody, { bodyLimit: 2048 });
    routes.get('/', async (_request, reply) => send(reply, shop.home()));
    routes.post('/orders', async (request, reply) => send(reply, await shop.placeOrder(fields(request.body))));
    routes.get<OrderParams>('/orders/:id', async (request, reply) => send(reply, await shop.order(request.params.id, request.headers.cookie)));
    routes.post<OrderParams>('/orders/:id/refund', async (request, reply) =>
      send(reply, await shop.refund(request.params.id, request.headers.cookie, routes.paymentRoutes.client)),
    );
    routes.get<{ Querystring: Record<string, unknown> }>('/login', async (request, reply) => send(reply, shop.loginForm(request.query['next'])));
    routes.post('/login', async (request, reply) => send(reply, shop.login(fields(request.body))));
    routes.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => send(reply, shop.asset(request.params.name)));
  };
}

/**
 * The shop in Fastify: paymount's plugin at /payments, the shop's routes in a plugin beside it. The
 * server is src/server.ts's, listening before the app exists so the shop's URL is known: it hands
 * each request to `app.routing`, the handler Fastify's own server would call.
 */
export async function createApp(shop: Shop): Promise<ShopApp> {
  const app = Fastify();
  // The plugin reads its routes' raw bodies itself: the webhook is verified on the bytes the service sent.
  await app.register(paymentPlugin, { prefix: MOUNT, ...shop.payments });
  await app.register(shopRoutes(shop));
  await app.ready();
  // app.close() closes paymount's routes too (the plugin's onClose hook).
  return { listener: app.routing, paymentRoutes: app.paymentRoutes, close: () => app.close() };
}
