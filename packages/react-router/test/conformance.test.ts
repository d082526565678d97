import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@react-router/express';
import express from 'express';
import type { ServerBuild } from 'react-router';
import { describeRouteConformance } from '../../../tools/conformance';
import { buildOf } from './support/test-app';

/** Where the conformance app's route (test/conformance-app/app/routes/conformance.$.js) takes its options from. */
const OPTIONS = Symbol.for('@paymount/react-router.test.conformance-options');

// The suite's options hold functions (resolveOrder, recording handlers, a logger), so the app runs in this
// process: the `react-router build` output served as the node-custom-server template serves it in production,
// Express with the client assets and @react-router/express's request handler.
describeRouteConformance('React Router 7 framework mode, production build on @react-router/express', {
  // The request handler builds a Request from the URL, which parses it: dot segments and backslashes arrive resolved.
  serverResolvesPaths: true,
  slowBodyCaseSkipped:
    "@react-router/node's request body stream destroys the request, and so the socket, when the routes cancel a body at their read deadline (@react-router/express, react-router-serve): the connection is closed, the 408 never sent",
  async startApp(options) {
    (globalThis as Record<symbol, unknown>)[OPTIONS] = options;
    const { server: serverBuild, client: clientBuild } = buildOf('conformance');
    const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
    const app = express();
    app.disable('x-powered-by');
    app.use('/assets', express.static(`${clientBuild}/assets`, { immutable: true, maxAge: '1y' }));
    app.use(express.static(clientBuild, { maxAge: '1h' }));
    app.use(createRequestHandler({ build, mode: 'production' }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/conformance`,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
});
