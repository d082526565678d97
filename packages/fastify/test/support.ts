import fastify5, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import type { AddressInfo } from 'node:net';
import type { Listening } from '../../../tools/adapter-testing';
import { paymentPlugin, type PaymentPluginOptions } from '../src';

/** Both supported majors; every test runs on each. */
export const FASTIFY_VERSIONS = [
  ['Fastify 5', fastify5],
  ['Fastify 4', fastify4],
] as const;

export type FastifyFactory = (typeof FASTIFY_VERSIONS)[number][1];

export interface FastifyTestApp extends Listening {
  /** Where the payment routes are served. */
  routesUrl: string;
  app: FastifyInstance;
}

/**
 * Starts an app with the payment plugin under /payments, after `setup` laid out
 * the app's own parsers and routes; the app also serves GET /payments/own-route.
 */
export async function startFastifyApp(
  fastify: FastifyFactory,
  options: PaymentPluginOptions,
  setup: (app: FastifyInstance) => void = () => {},
): Promise<FastifyTestApp> {
  const app: FastifyInstance = fastify();
  setup(app);
  app.get('/payments/own-route', async () => ({ own: true }));
  await app.register(paymentPlugin, { ...options, prefix: '/payments' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return { url, routesUrl: `${url}/payments`, app, close: () => app.close() };
}
