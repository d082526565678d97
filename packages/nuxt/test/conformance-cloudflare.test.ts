import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startNitroWorker } from './support/nitro-worker';

// The same test app built by `nuxt build` for Nitro's cloudflare-module preset, a Worker served by workerd. The routes
// keep the in-memory stores (and log their warning): one isolate serves every request here, as `wrangler dev` does,
// so the one-order-one-charge and deduplication cases hold; the suite's options reach the Worker as data, which
// cannot carry a Durable Object binding, and @paymount/cloudflare's own tests prove its stores across isolates.
describeRouteConformance(
  'Nuxt 4 production server (Nitro cloudflare-module preset)',
  remoteConformanceTarget(
    'workerd under Nitro',
    async (description) => {
      const worker = await startNitroWorker({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
      return { url: `${worker.origin}${description.mountPath}`, close: worker.stop };
    },
    {
      mountPath: '/conformance',
      slowBodyCaseSkipped:
        "Nitro's cloudflare-module preset reads every body whole (`await request.arrayBuffer()`) before the app runs, so the routes' read deadline never applies: the slow sender waits for workerd, with no answer",
      // The preset's Worker answers a HEAD with no `Content-Length`, where the routes set the GET's length.
      platformDropsContentLength: true,
    },
  ),
);
