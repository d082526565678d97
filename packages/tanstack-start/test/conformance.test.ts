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
    {
      mountPath: '/conformance',
      // TanStack Start's page router takes `/conformance%2Fcheckout` (its splat route does not match it) and answers it itself.
      frameworkAnswersEncodedSlashAfterMount: true,
      slowBodyCaseSkipped:
        'node .output/server/index.mjs (Nitro 2 node-server under TanStack Start 1.131) answers a trickling body with its own empty 400 and closes the connection, so the routes\' 408 never reaches the client (cause in Nitro/h3 not traced)',
    },
  ),
);
