import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { serveTestApp } from './support/test-app';

// The test app built by `astro build` (@astrojs/node, standalone) and served by `node dist/server/entry.mjs`, a process
// of its own: the suite's options travel as a description and their functions as calls back to this process.
describeRouteConformance(
  'Astro 5 on @astrojs/node, standalone',
  remoteConformanceTarget(
    'the Astro server (node dist/server/entry.mjs)',
    async (description) => {
      const server = await serveTestApp({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${server.origin}${description.mountPath}`, close: server.close };
    },
    {
      mountPath: '/conformance',
      // Astro answers a path ending in several slashes with a redirect to it ending in one, before any route.
      serverCollapsesTrailingSlashes: true,
      // Astro's security.checkOrigin (on by default) refuses a form post without the app's own Origin, before any route.
      platformChecksFormOrigin: true,
    },
  ),
);
