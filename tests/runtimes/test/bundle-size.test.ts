import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RUNTIMES_DIR } from '../support/processes';
import { bundleWorker, type WorkerBundle } from '../support/worker-build';

/**
 * Two Workers a merchant would deploy, bundled as wrangler bundles them
 * (support/worker-build.ts). Their sizes are reported here; the budgets
 * (8 KB and 60 KB gzipped) are asserted by a later change, not yet.
 */
const WORKERS = {
  'webhook-only Worker (verifyWebhook)': `
    import { verifyWebhook } from '@paymount/core';
    export default {
      async fetch(request, env) {
        try {
          const event = await verifyWebhook({ secret: env.WEBHOOK_SECRET, rawBody: await request.text(), headers: request.headers });
          return Response.json({ received: event.type });
        } catch {
          return new Response('refused', { status: 400 });
        }
      },
    };`,
  'every route Worker (createFetchHandler)': `
    import { createFetchHandler } from '@paymount/core';
    let payments;
    export default {
      fetch(request, env) {
        payments ??= createFetchHandler(
          {
            client: { apiKey: env.API_KEY, baseUrl: env.SERVICE_URL, appId: env.APP_ID, merchantId: env.MERCHANT_ID },
            resolveOrder: async (orderId) => (await env.ORDERS.get(orderId, 'json')) ?? null,
            notifyUrl: env.NOTIFY_URL,
            wallet: { gatewayId: env.GATEWAY_ID },
            webhook: { secret: env.WEBHOOK_SECRET },
            on: { 'payment.succeeded': (event) => env.ORDERS.put(event.referenceOrderId, JSON.stringify({ paid: true })) },
          },
          { mountPath: '/payments' },
        );
        return payments(request);
      },
    };`,
} as const;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function figures(name: string, bundle: WorkerBundle): string {
  const bytes = Buffer.byteLength(bundle.code);
  const gzipped = gzipSync(bundle.code, { level: 9 }).byteLength;
  const parts = bundle.byPackage
    .slice(0, 5)
    .map(([pkg, size]) => `${pkg} ${kb(size)}`)
    .join(', ');
  const node = bundle.nodeImports.length === 0 ? 'none' : bundle.nodeImports.join(' ');
  return `${name}: ${kb(bytes)} minified, ${kb(gzipped)} gzipped (${gzipped} B); largest: ${parts}; node:* imports: ${node}`;
}

describe('Worker bundle sizes (esbuild, minified, conditions workerd/worker/browser)', () => {
  for (const [name, source] of Object.entries(WORKERS)) {
    describe(name, () => {
      let bundle: WorkerBundle;

      it('bundles, and its size is reported', async () => {
        bundle = await bundleWorker({ source, resolveDir: RUNTIMES_DIR });
        console.log(figures(name, bundle));
        expect(bundle.code.length).toBeGreaterThan(0);
      });

      it('imports no node:* module, so it loads on workerd without nodejs_compat', () => {
        expect(bundle.nodeImports).toEqual([]);
      });
    });
  }
});
