import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startNitroServer } from './support/nitro-server';

// The same test app built by `nuxt build` for Nitro's deno-server preset, served by the `start` task the build wrote
// into .output/deno.json (the deno from npm): Deno.serve in front of the Nitro app.
describeRouteConformance(
  'Nuxt 4 production server (Nitro deno-server preset)',
  remoteConformanceTarget(
    'Deno under Nitro',
    async (description) => {
      const server = await startNitroServer({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) }, { preset: 'deno-server' });
      return { url: `${server.origin}${description.mountPath}`, close: server.stop };
    },
    {
      mountPath: '/conformance',
      slowBodyCaseSkipped:
        "Nitro's deno-server preset reads every body whole (`await request.arrayBuffer()`) before the app runs, so the routes' read deadline never applies: the slow sender waits for Deno.serve, with no answer",
      // The preset answers a HEAD with `Content-Length: 0`, not the length the routes set (as the bun preset does).
      platformZeroesHeadContentLength: true,
    },
  ),
);
