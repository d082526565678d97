import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createFetchHandler } from '@paymount/core';
import { Hono } from 'hono';
import { describeRouteConformance } from '../../../tools/conformance';

// The Hono app of the site's routes reference (site/reference/routes-options.md), on Node through @hono/node-server.
describeRouteConformance('hono on node', {
  serverResolvesPaths: true,
  async startApp(options) {
    const payments = createFetchHandler(options, { mountPath: '/payments' });
    const app = new Hono();
    for (const path of payments.paymentRoutes.routePaths) {
      app.all(`/payments${path}`, (c) => payments(c.req.raw));
    }
    app.get('/payments/own-route', (c) => c.json({ own: true }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    if (!server.listening) await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`,
      async close() {
        server.closeAllConnections();
        server.close();
        await payments.paymentRoutes.close();
      },
    };
  },
});
