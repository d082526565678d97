import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startNitroServer } from './support/nitro-server';

// The test app built by `nuxt build` (node-server preset) and served by `node .output/server/index.mjs`, apart from the
// test process: the suite's options travel as a description and their functions as calls back here.
describeRouteConformance(
  'Nuxt 4 production server (Nitro node-server preset)',
  remoteConformanceTarget(
    'a Nuxt production server',
    async (description) => {
      const server = await startNitroServer({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${server.origin}${description.mountPath}`, close: server.stop };
    },
    {
      mountPath: '/conformance',
      // Node's HTTP server hands Nitro the path as sent: dot segments, escapes and backslashes reach the routes unresolved.
      serverResolvesPaths: false,
    },
  ),
);
