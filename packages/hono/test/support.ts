import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import type { PaymentRoutesOptions } from '@paymount/core';
import type { Listening } from '../../../tools/adapter-testing';
import { paymentApp, type PaymentApp } from '../src';

export interface HonoTestApp extends Listening {
  /** Where the payment routes are served. */
  routesUrl: string;
  payments: PaymentApp;
}

/** Serves a Hono app on 127.0.0.1, port 0, through @hono/node-server. */
export async function serveHono(app: Pick<Hono, 'fetch'>): Promise<Listening> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A global middleware of the kind many apps have: it reads every JSON body (to log or validate it) before any route. */
export const readsJsonBodies: MiddlewareHandler = async (c, next) => {
  if (c.req.header('content-type')?.startsWith('application/json')) await c.req.json().catch(() => undefined);
  await next();
};

/**
 * Starts an app with the payment routes built from `options` at `mountPath`
 * ('/payments' unless said), what `before` registers ahead of them, then the
 * app's own GET <mountPath>/own-route.
 */
export async function startHonoApp(
  options: PaymentRoutesOptions,
  { before = () => {}, mountPath = '/payments' }: { before?: (app: Hono) => void; mountPath?: string } = {},
): Promise<HonoTestApp> {
  const app = new Hono();
  const payments = paymentApp(options);
  before(app);
  app.route(mountPath, payments);
  app.get(`${mountPath}/own-route`, (c) => c.json({ own: true }));
  const server = await serveHono(app);
  return {
    ...server,
    routesUrl: `${server.url}${mountPath}`,
    payments,
    async close() {
      await server.close();
      await payments.paymentRoutes.close();
    },
  };
}
