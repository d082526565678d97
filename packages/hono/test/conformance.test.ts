import { Hono } from 'hono';
import { describeRouteConformance } from '../../../tools/conformance';
import { paymentApp } from '../src';
import { readsJsonBodies, serveHono, startHonoApp } from './support';

// Node's HTTP server hands @hono/node-server the URL as sent, which it parses into the Request: dot segments arrive resolved.
describeRouteConformance('hono: app.route under /payments', {
  serverResolvesPaths: true,
  async startApp(options) {
    const app = await startHonoApp(options);
    return { url: app.routesUrl, close: () => app.close() };
  },
});

// An app under a basePath whose global middleware reads every JSON body first: the routes use the bytes Hono kept.
describeRouteConformance('hono: under basePath /shop, behind a global middleware reading each JSON body', {
  serverResolvesPaths: true,
  platformReadsBodies: true,
  async startApp(options) {
    const root = new Hono();
    const shop = root.basePath('/shop');
    shop.use(readsJsonBodies);
    const payments = paymentApp(options);
    shop.route('/payments', payments);
    shop.get('/payments/own-route', (c) => c.json({ own: true }));
    const server = await serveHono(root);
    return {
      url: `${server.url}/shop/payments`,
      async close() {
        await server.close();
        await payments.paymentRoutes.close();
      },
    };
  },
});

// Options made by the first request's Context, as a Worker makes them from c.env: the same answers.
describeRouteConformance('hono: paymentApp((c) => options), the options made on the first request', {
  serverResolvesPaths: true,
  async startApp(options) {
    const app = new Hono();
    const payments = paymentApp(() => options);
    app.route('/payments', payments);
    app.get('/payments/own-route', (c) => c.json({ own: true }));
    // The test's own way in to the routes the requests made, to close them as an app's shutdown would.
    app.post('/test/close', async (c) => {
      await (await payments.getPaymentRoutes(c)).close();
      return c.body(null, 204);
    });
    const server = await serveHono(app);
    return {
      url: `${server.url}/payments`,
      async close() {
        await server.close();
        await app.request('/test/close', { method: 'POST' });
      },
    };
  },
});
