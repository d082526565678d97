import { describeRouteConformance } from '../../../tools/conformance';
import { serveConformanceBuild } from './support/serve-build';

// The suite's options hold functions (resolveOrder, recording handlers, a logger), so the app runs in this
// process: the conformance app's `react-router build`, served by @react-router/express (support/serve-build.ts).
describeRouteConformance('React Router 7 framework mode, production build on @react-router/express', {
  // The request handler builds a Request from the URL, which parses it: dot segments and backslashes arrive resolved.
  serverResolvesPaths: true,
  slowBodyCaseSkipped:
    "@react-router/node's request body stream destroys the request, and so the socket, when the routes cancel a body at their read deadline (@react-router/express, react-router-serve): the connection is closed, the 408 never sent",
  async startApp(options) {
    const served = await serveConformanceBuild(options);
    return { url: `${served.origin}/conformance`, close: () => served.close() };
  },
});
