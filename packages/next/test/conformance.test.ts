import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import next from 'next';
import { describeRouteConformance } from '../../../tools/conformance';
import { appDir } from './support/test-app';

/** Where the test app's conformance route (test/next-app/app/conformance/[...paymount]/route.js) takes its options from. */
const OPTIONS = Symbol.for('@paymount/next.test.conformance-options');

// The suite's options hold functions (resolveOrder, recording handlers, a logger), so the app must run in
// this process: Next.js's production server (what `next start` runs) from the same `next build`, in process.
describeRouteConformance('Next.js production server, Node runtime', {
  // Next.js parses each request's URL before routing it, redirects doubled slashes to the plain path,
  // and forwards no Content-Length of a route handler's answer.
  serverResolvesPaths: true,
  serverRedirectsDoubledSlashes: true,
  platformDropsContentLength: true,
  async startApp(options) {
    (globalThis as Record<symbol, unknown>)[OPTIONS] = options;
    // This process's own environment must not start a second sandbox from the app's instrumentation.ts.
    process.env['PAYMOUNT_SANDBOX'] = '0';
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const app = next({ dev: false, dir: appDir, hostname: '127.0.0.1', port, quiet: true });
    await app.prepare();
    const handle = app.getRequestHandler();
    server.on('request', (req, res) => void handle(req, res));
    return {
      url: `http://127.0.0.1:${port}/conformance`,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await app.close();
      },
    };
  },
});
