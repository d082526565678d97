import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startNitroServer } from './support/nitro-server';

// The same test app built by `nuxt build` for Nitro's bun preset, served by `bun .output/server/index.mjs`
// (the bun from npm): Bun.serve in front of the Nitro app.
describeRouteConformance(
  'Nuxt 4 production server (Nitro bun preset)',
  remoteConformanceTarget(
    'Bun under Nitro',
    async (description) => {
      const server = await startNitroServer({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) }, { preset: 'bun' });
      return { url: `${server.origin}${description.mountPath}`, close: server.stop };
    },
    {
      mountPath: '/conformance',
      slowBodyCaseSkipped:
        "Nitro's bun preset reads every body whole (`await req.arrayBuffer()`) before the app runs, so the routes' read deadline never applies: Bun's idle timeout (NITRO_BUN_IDLE_TIMEOUT) ends a slow sender, with no answer",
      // The preset answers a HEAD with `Content-Length: 0`, not the length the routes set.
      platformZeroesHeadContentLength: true,
    },
  ),
);
