import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startWorker } from '../support/workerd';

/** How the Worker mounts the routes (its APP binding, see flows/conformance-worker.mjs), by the suite's name for it. */
const APPS = [
  ['createFetchHandler', 'fetch-handler'],
  ["@paymount/hono: app.route('/payments', paymentApp(options))", 'hono'],
] as const;

// Core's workerd build in a Worker served by workerd (Miniflare, no nodejs_compat), the suite's functions
// reached over HTTP. One isolate serves every request, as `wrangler dev` does.
for (const [name, app] of APPS) {
  describeRouteConformance(
    `workerd (a Worker, ${name})`,
    remoteConformanceTarget(
      'workerd',
      async (description) => {
        const worker = await startWorker('flows/conformance-worker.mjs', { CONFORMANCE: description, APP: app });
        return { url: new URL(description.mountPath, worker.url).href, close: worker.dispose };
      },
      // workerd drops hop-by-hop headers from a Worker's answer; the slow-loris connections are still closed, by a reset.
      {
        platformDropsConnectionHeader: true,
        resetsUnreadConnection: 'workerd resets a connection whose declared body the Worker left unread',
      },
    ),
  );
}
