import { describe, expect, it } from 'vitest';
import { EVERY_ROUTE_WORKER, WEBHOOK_ONLY_WORKER, type SizedWorker } from '../../../tests/runtimes/support/budget-workers';
import { meetsTarget } from '../harness/results';
import { bundleSizeFigureOf } from './bundle-size';

/** A Worker of `gzippedBytes`, as sizeWorker reports one. */
const sized = (gzippedBytes: number): SizedWorker => ({
  bundle: { code: '', exports: ['default'], imports: [], nodeImports: [], byPackage: [['@paymount/core', 3 * gzippedBytes]] },
  minifiedBytes: 3 * gzippedBytes,
  gzippedBytes,
});

describe('the bundle size figures', () => {
  it('hold the webhook-only Worker to 8 KB gzipped and the every-route Worker to 60 KB, to the byte', () => {
    const webhook = (bytes: number) => bundleSizeFigureOf('bundle-webhook-worker', WEBHOOK_ONLY_WORKER, sized(bytes));
    const everyRoute = (bytes: number) => bundleSizeFigureOf('bundle-every-route-worker', EVERY_ROUTE_WORKER, sized(bytes));
    expect([meetsTarget(webhook(8192)), meetsTarget(webhook(8193))]).toEqual([true, false]);
    expect([meetsTarget(everyRoute(61_440)), meetsTarget(everyRoute(61_441))]).toEqual([true, false]);
  });

  it('report the bytes beside the ratio', () => {
    const figure = bundleSizeFigureOf('bundle-webhook-worker', WEBHOOK_ONLY_WORKER, sized(4096));
    expect(figure.ratio).toEqual({ median: 0.5, min: 0.5, max: 0.5 });
    expect(figure.absolute).toMatchObject({ gzippedBytes: 4096, budgetBytes: 8192, largestPackages: { '@paymount/core': 12_288 } });
  });
});
