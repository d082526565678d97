import { describe, expect, it } from 'vitest';
import { EVERY_ROUTE_WORKER, ROOT_ENTRY_WEBHOOK_WORKER, sizeWorker, WEBHOOK_ONLY_WORKER, type SizedWorker } from '../support/budget-workers';

/**
 * Workers a merchant would deploy (support/budget-workers.ts), bundled as
 * wrangler bundles them (tools/workerd.ts). Each one's size is
 * reported; a Worker with a budget (gzipped) is held to it: issue 27's 8 KB
 * for the webhook-only Worker (about 4.5 KB: the verifier runs hand-written
 * checks of the webhook schemas' rules, packages/core/src/webhooks/event-checks.ts, not zod)
 * and 60 KB for the every-route Worker (about 57 KB; core's schemas are
 * zod/mini, whose functions tree-shake, where zod classic's methods sit on
 * every schema: 127 KB with them).
 */
const WORKERS = [WEBHOOK_ONLY_WORKER, ROOT_ENTRY_WEBHOOK_WORKER, EVERY_ROUTE_WORKER];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function figures(name: string, { bundle, minifiedBytes, gzippedBytes }: SizedWorker): string {
  const parts = bundle.byPackage
    .slice(0, 5)
    .map(([pkg, size]) => `${pkg} ${kb(size)}`)
    .join(', ');
  const node = bundle.nodeImports.length === 0 ? 'none' : bundle.nodeImports.join(' ');
  return `${name}: ${kb(minifiedBytes)} minified, ${kb(gzippedBytes)} gzipped (${gzippedBytes} B); largest: ${parts}; node:* imports: ${node}`;
}

describe('Worker bundle sizes (esbuild, minified, conditions workerd/worker/browser)', () => {
  for (const worker of WORKERS) {
    describe(worker.name, () => {
      let sized: SizedWorker;

      it('bundles, and its size is reported', async () => {
        sized = await sizeWorker(worker);
        console.log(figures(worker.name, sized));
        expect(sized.bundle.code.length).toBeGreaterThan(0);
      });

      it('imports no node:* module, so it loads on workerd without nodejs_compat', () => {
        expect(sized.bundle.nodeImports).toEqual([]);
      });

      const budget = worker.budgetBytes;
      if (budget !== undefined) {
        it(`weighs at most ${kb(budget)} gzipped`, () => {
          expect(sized.gzippedBytes).toBeLessThanOrEqual(budget);
        });
      }
    });
  }
});
