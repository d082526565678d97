import { createServer, type RequestListener } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { describeRouteConformance } from '../../../tools/conformance';
import { serverEntry } from './support/test-app';

/** Where the test app's in-process route (test/astro-app/src/pages/in-process/[...paymount].js) takes its options from. */
const OPTIONS = Symbol.for('@paymount/astro.test.conformance-options');

// The suite's options hold functions and an OpenTelemetry SDK of this process, so this run serves the same
// `astro build` here: the request handler @astrojs/node's standalone server runs (`node dist/server/entry.mjs`
// starts it), on a node:http server of the test's. test/conformance.test.ts runs the entry itself.
describeRouteConformance('Astro 5 on @astrojs/node, the standalone handler in process', {
  // As under node dist/server/entry.mjs: Astro parses each request's URL into a Request before routing it (so
  // middleware and endpoints see dot segments resolved alike), redirects a path ending in several slashes, and
  // checks a form's origin.
  serverResolvesPaths: true,
  serverCollapsesTrailingSlashes: true,
  platformChecksFormOrigin: true,
  async startApp(options) {
    (globalThis as Record<symbol, unknown>)[OPTIONS] = options;
    // Importing the entry otherwise starts its own server, on PORT.
    process.env['ASTRO_NODE_AUTOSTART'] = 'disabled';
    const { handler } = (await import(pathToFileURL(serverEntry).href)) as { handler: RequestListener };
    const server = createServer(handler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/in-process`,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
});
