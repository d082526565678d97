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
    { mountPath: '/conformance' },
  ),
);
