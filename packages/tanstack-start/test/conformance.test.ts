import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startApp } from './support/start-app';

// The production build (`vite build`) served by its own Node server in a child process, as the template's
// `start` script runs it: the suite's options travel to it as a description, their functions as calls back here.
describeRouteConformance(
  'TanStack Start, node .output/server/index.mjs',
  remoteConformanceTarget(
    'the TanStack Start production server',
    async (description) => {
      const server = await startApp({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${server.origin}${description.mountPath}`, close: server.close };
    },
    { mountPath: '/payments' },
  ),
);
