import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RUNTIMES_DIR } from '../support/processes';
import { bundleWorker, type WorkerBundle } from '../support/worker-build';

/**
 * Workers a merchant would deploy, bundled as wrangler bundles them
 * (support/worker-build.ts). Each one's size is reported; a Worker with a
 * ceiling (gzipped) is held to it.
 *
 * Both are held to issue 27's budgets. The webhook-only Worker, 8 KB: it
 * carries no zod (the verifier runs checks generated from the webhook schemas
 * at build time, packages/core/scripts/compile-webhook-checks.ts), about 4.5 KB.
 * The every-route Worker, 60 KB: about 58 KB, core's own code about two thirds
 * of it and zod the rest; core's schemas are zod/mini, whose functions tree-shake
 * (zod classic's methods sit on every schema: 127 KB with them).
 */
const VERIFY_AND_ANSWER = `
    export default {
      async fetch(request, env) {
        try {
          const event = await verifyWebhook({ secret: env.WEBHOOK_SECRET, rawBody: await request.text(), headers: request.headers });
          return Response.json({ received: event.type });
        } catch {
          return new Response('refused', { status: 400 });
        }
      },
    };`;

const WORKERS: Record<string, { source: string; ceilingBytes?: number }> = {
  'webhook-only Worker (@paymount/core/webhooks)': {
    source: `import { verifyWebhook } from '@paymount/core/webhooks';${VERIFY_AND_ANSWER}`,
    ceilingBytes: 8 * 1024,
  },
  'webhook-only Worker through the root entry (@paymount/core)': {
    source: `import { verifyWebhook } from '@paymount/core';${VERIFY_AND_ANSWER}`,
  },
  'every route Worker (createFetchHandler)': {
    source: `
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
    ceilingBytes: 60 * 1024,
  },
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const gzippedSize = (bundle: WorkerBundle) => gzipSync(bundle.code, { level: 9 }).byteLength;

function figures(name: string, bundle: WorkerBundle): string {
  const bytes = Buffer.byteLength(bundle.code);
  const gzipped = gzippedSize(bundle);
  const parts = bundle.byPackage
    .slice(0, 5)
    .map(([pkg, size]) => `${pkg} ${kb(size)}`)
    .join(', ');
  const node = bundle.nodeImports.length === 0 ? 'none' : bundle.nodeImports.join(' ');
  return `${name}: ${kb(bytes)} minified, ${kb(gzipped)} gzipped (${gzipped} B); largest: ${parts}; node:* imports: ${node}`;
}

describe('Worker bundle sizes (esbuild, minified, conditions workerd/worker/browser)', () => {
  for (const [name, { source, ceilingBytes }] of Object.entries(WORKERS)) {
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

      if (ceilingBytes !== undefined) {
        it(`weighs at most ${kb(ceilingBytes)} gzipped`, () => {
          expect(gzippedSize(bundle)).toBeLessThanOrEqual(ceilingBytes);
        });
      }
    });
  }
});
