import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startWorker } from '../support/workerd';

// createFetchHandler of core's workerd build in a Worker served by workerd (Miniflare, no nodejs_compat),
// the suite's functions reached over HTTP. One isolate serves every request, as `wrangler dev` does.
describeRouteConformance(
  'workerd (a Worker, createFetchHandler)',
  remoteConformanceTarget(
    'workerd',
    async (description) => {
      const worker = await startWorker('flows/conformance-worker.mjs', { CONFORMANCE: description });
      return { url: new URL(description.mountPath, worker.url).href, close: worker.dispose };
    },
    // workerd drops hop-by-hop headers from a Worker's answer; the slow-loris connections are still closed.
    { platformDropsConnectionHeader: true },
  ),
);
