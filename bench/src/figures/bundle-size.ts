import { EVERY_ROUTE_WORKER, sizeWorker, WEBHOOK_ONLY_WORKER, type BudgetWorker, type SizedWorker } from '../../../tests/runtimes/support/budget-workers';
import type { Figure } from '../harness/results';
import { spreadOf } from '../harness/stats';

/** The Workers held to a budget, by figure id: the same sources and budgets tests/runtimes' bundle-size test holds. */
const BUDGETED: ReadonlyArray<{ id: string; worker: BudgetWorker }> = [
  { id: 'bundle-webhook-worker', worker: WEBHOOK_ONLY_WORKER },
  { id: 'bundle-every-route-worker', worker: EVERY_ROUTE_WORKER },
];

/**
 * Enough decimals that one byte over a budget reads as over it: rounded to the
 * harness's usual three, 8,196 bytes over an 8,192-byte budget would be 1.000.
 */
const BYTE_EXACT_DECIMALS = 6;

/**
 * Issue 27's bundle budgets as figures: each Worker bundled as wrangler bundles
 * it (tools/workerd.ts: esbuild, ESM, minified, the
 * `workerd`/`worker`/`browser` conditions) and gzipped, over its budget. A
 * build is deterministic, so one build is the whole sample. A bundle that still
 * imports a `node:*` module fails the group: it would not load on workerd, so
 * its size means nothing.
 */
export async function bundleSizeFigures(): Promise<Figure[]> {
  const sized: Array<{ id: string; worker: BudgetWorker; size: SizedWorker }> = [];
  for (const { id, worker } of BUDGETED) {
    const size = await sizeWorker(worker);
    if (size.bundle.nodeImports.length > 0) throw new Error(`${worker.name} imports ${size.bundle.nodeImports.join(', ')}: it would not load on workerd without nodejs_compat`);
    sized.push({ id, worker, size });
  }
  return sized.map(({ id, worker, size }) => bundleSizeFigureOf(id, worker, size));
}

/** One Worker's figure: its gzipped bytes over its budget, at most 1. */
export function bundleSizeFigureOf(id: string, worker: BudgetWorker, { bundle, minifiedBytes, gzippedBytes }: SizedWorker): Figure {
  const budgetBytes = worker.budgetBytes;
  if (budgetBytes === undefined) throw new Error(`${worker.name} has no budget to be held to`);
  return {
    id,
    what: `${worker.name}: gzipped bytes (level 9) of its bundle as wrangler builds it (esbuild, minified, conditions workerd/worker/browser) over its ${budgetBytes / 1024} KB budget`,
    ratio: spreadOf([gzippedBytes / budgetBytes], BYTE_EXACT_DECIMALS),
    target: 1,
    higherIsBetter: false,
    absolute: {
      gzippedBytes,
      minifiedBytes,
      budgetBytes,
      largestPackages: Object.fromEntries(bundle.byPackage.slice(0, 5)),
    },
  };
}
