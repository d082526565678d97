import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createFetchHandler } from '@paymount/core';
import { Hono } from 'hono';
import { describeGuardHolds, SESSION_COOKIE } from '../../../tools/adapter-testing/login-guard';

// A Fetch runtime resolves dot segments before the app sees the URL: the guard and createFetchHandler see the same path.
describeGuardHolds("the Hono app of the site's routes reference", async (options) => {
  const payments = createFetchHandler(options, { mountPath: '/payments' });
  const app = new Hono();
  app.use('/payments/checkout', async (c, next) =>
    c.req.header('cookie') === SESSION_COOKIE ? next() : c.json({ error: 'login required' }, 401),
  );
  for (const path of payments.paymentRoutes.routePaths) app.all(`/payments${path}`, (c) => payments(c.req.raw));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  if (!server.listening) await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await payments.paymentRoutes.close();
    },
  };
});
