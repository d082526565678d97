import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { nodeBuild } from './support/node-build';

// The test app (test/sveltekit-app) built by `vite build` with adapter-node and served by `node build`, apart from
// this process: the suite's options travel as a description and their functions as calls back here.
describeRouteConformance(
  'SvelteKit with adapter-node, served by node build',
  remoteConformanceTarget(
    'SvelteKit under node build',
    async (description) => {
      const server = await nodeBuild({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${server.origin}${description.mountPath}`, close: server.close };
    },
    {
      mountPath: '/conformance',
      // SvelteKit refuses a form post whose Origin is not the app's own or in `csrf.trustedOrigins`, before any route.
      platformChecksFormOrigin: true,
      platformTrustsAllowedOrigin: true,
      slowBodyCaseSkipped:
        "SvelteKit's Node request body (@sveltejs/kit/node, under adapter-node) destroys the request, and with it the socket, when the routes stop reading a body still trickling in, so the 408 never reaches the client",
    },
  ),
);
