import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { nextStart } from './support/next-server';

// The same build's edge route (test/next-app/app/conformance-edge), served by `next start`: the edge runtime runs
// apart from this process, so the suite's options travel as a description and their functions as calls back here.
describeRouteConformance(
  'Next.js under next start, edge runtime',
  remoteConformanceTarget(
    'the Next.js edge runtime',
    async (description) => {
      const server = await nextStart({ PAYMOUNT_SANDBOX: '0', PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${server.origin}${description.mountPath}`, close: server.stop };
    },
    {
      mountPath: '/conformance-edge',
      // As on the Node runtime: Next.js redirects doubled slashes and forwards no Content-Length of a route handler.
      serverRedirectsDoubledSlashes: true,
      platformDropsContentLength: true,
      slowBodyCaseSkipped: "next start sends nothing back while an edge route's declared body is still arriving (nothing in 8 s), so the 408 never reaches the client",
    },
  ),
);
