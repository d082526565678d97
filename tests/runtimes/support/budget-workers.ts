import { gzipSync } from 'node:zlib';
import { RUNTIMES_DIR } from './processes';
import { bundleWorker, type WorkerBundle } from '../../../tools/workerd';

/**
 * Workers a merchant would deploy, as source text, and issue 27's budgets for
 * them (gzipped, bundled as wrangler bundles them: tools/workerd.ts).
 * Held to them by test/bundle-size.test.ts and reported against them by the
 * bench (`bundle-size` group).
 */
export interface BudgetWorker {
  name: string;
  source: string;
  /** The most it may weigh gzipped; none for a Worker that is only reported. */
  budgetBytes?: number;
}

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

/** A Worker that only verifies webhooks, through the entry made for it: 8 KB. It carries no zod (the webhook checks are written by hand). */
export const WEBHOOK_ONLY_WORKER: BudgetWorker = {
  name: 'webhook-only Worker (@paymount/core/webhooks)',
  source: `import { verifyWebhook } from '@paymount/core/webhooks';${VERIFY_AND_ANSWER}`,
  budgetBytes: 8 * 1024,
};

/** The same through the root entry: reported, to show what tree-shaking leaves of the rest. */
export const ROOT_ENTRY_WEBHOOK_WORKER: BudgetWorker = {
  name: 'webhook-only Worker through the root entry (@paymount/core)',
  source: `import { verifyWebhook } from '@paymount/core';${VERIFY_AND_ANSWER}`,
};

/** A Worker serving every route through `createFetchHandler`: 60 KB, core's own code about two thirds of it and zod/mini the rest. */
export const EVERY_ROUTE_WORKER: BudgetWorker = {
  name: 'every route Worker (createFetchHandler)',
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
  budgetBytes: 60 * 1024,
};

export interface SizedWorker {
  bundle: WorkerBundle;
  minifiedBytes: number;
  /** Gzipped at level 9, as the budgets are measured. */
  gzippedBytes: number;
}

/** Bundles `worker` from tests/runtimes (so `@paymount/core` resolves to its build) and weighs it. */
export async function sizeWorker(worker: BudgetWorker): Promise<SizedWorker> {
  const bundle = await bundleWorker({ source: worker.source, resolveDir: RUNTIMES_DIR });
  return { bundle, minifiedBytes: Buffer.byteLength(bundle.code), gzippedBytes: gzipSync(bundle.code, { level: 9 }).byteLength };
}
