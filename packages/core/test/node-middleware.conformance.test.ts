import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeRouteConformance } from '../../../tools/conformance';
import { createNodeMiddleware } from '../src/index';

// The reference mounting: a plain node:http server, the payment routes under
// /payments, and the app's own route after them.
describeRouteConformance('plain node:http', {
  async startApp(options) {
    const payments = createNodeMiddleware(options, { mountPath: '/payments' });
    const server = createServer((req, res) =>
      payments(req, res, () => {
        const own = req.method === 'GET' && req.url === '/payments/own-route';
        res.writeHead(own ? 200 : 404, { 'content-type': own ? 'application/json' : 'text/plain' });
        res.end(own ? JSON.stringify({ own: true }) : 'Not Found');
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/payments`,
      async close() {
        server.closeAllConnections();
        server.close();
        await payments.paymentRoutes.close();
      },
    };
  },
});
