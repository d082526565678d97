import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { DedupeMemoryRequest, DedupeMemoryResult } from '../subjects/dedupe-memory';

const DELIVERIES = 1_000_000;
/** The baseline: a tenth as many, already far past the store's bound. */
const BASELINE_DELIVERIES = 100_000;
/** Each run stops here even short of its count (about 10 s at the store's pace here); the figure then says how far it got. */
const MAX_RUN_MS = 15_000;

/**
 * Figure 5: what a process that pushed 1,000,000 distinct deliveries through
 * MemoryIdempotencyStore still holds, over what one that pushed 100,000 holds.
 * A bounded store keeps the ratio near 1; a leak would make it approach 10.
 */
export async function memoryFigures(settings: BenchSettings): Promise<Figure[]> {
  const measure = (deliveries: number) =>
    withScope(async (scope) => {
      const child = await scope.start(subject('dedupe-memory'), {}, ['--expose-gc']);
      return child.request<DedupeMemoryResult>({ deliveries, maxMs: MAX_RUN_MS } satisfies DedupeMemoryRequest, MAX_RUN_MS + 30_000);
    });
  const runs = await pairedRuns(settings.runs, [
    { name: 'million', measure: () => measure(DELIVERIES) },
    { name: 'baseline', measure: () => measure(BASELINE_DELIVERIES) },
  ]);
  return memoryFiguresOf(runs.get('million')!, runs.get('baseline')!);
}

/**
 * The memory figures from each run of both sides. The target is on the heap
 * kept after a full collection: peak RSS follows V8's collection cycle (see the
 * README), so it is reported, not judged.
 */
export function memoryFiguresOf(million: readonly DedupeMemoryResult[], baseline: readonly DedupeMemoryResult[]): Figure[] {
  const mib = (results: readonly DedupeMemoryResult[]) => results.map((result) => result.peakRssBytes / 2 ** 20);
  const retainedMib = (results: readonly DedupeMemoryResult[]) => results.map((result) => result.retainedHeapBytes / 2 ** 20);
  const reached = Math.min(...million.map((result) => result.deliveries));
  // False when a run hit its time cap before its count: the ratio then does not show what it is meant to.
  const complete = million.every((result) => result.deliveries === DELIVERIES);
  const runOf = `${reached.toLocaleString('en')} distinct deliveries (of ${DELIVERIES.toLocaleString('en')} wanted, ${MAX_RUN_MS / 1000} s cap) through MemoryIdempotencyStore`;
  return [
    {
      id: 'dedupe-memory',
      what: `heap in use after a full garbage collection, after ${runOf} vs after up to ${BASELINE_DELIVERIES.toLocaleString('en')}: what the store holds, without the heap V8 sizes for the garbage in flight`,
      ratio: ratiosOf(retainedMib(million), retainedMib(baseline)),
      target: 1.1,
      higherIsBetter: false,
      absolute: {
        complete,
        retainedHeap: absoluteOf(retainedMib(million), 'MiB'),
        baselineRetainedHeap: absoluteOf(retainedMib(baseline), 'MiB'),
        deliveries: absoluteOf(
          million.map((result) => result.deliveries),
          'deliveries',
        ),
        baselineDeliveries: absoluteOf(
          baseline.map((result) => result.deliveries),
          'deliveries',
        ),
        deliveriesPerSecond: absoluteOf(
          million.map((result) => (result.deliveries * 1000) / result.elapsedMs),
          'deliveries/s',
        ),
        storeBound: million[0]!.storeBound,
        storeSizeAtEnd: million[0]!.storeSize,
        keysPerDelivery: 2,
        elapsed: absoluteOf(
          million.map((result) => result.elapsedMs),
          'ms',
        ),
      },
    },
    {
      id: 'dedupe-peak-rss',
      what: `peak RSS after ${runOf} vs after up to ${BASELINE_DELIVERIES.toLocaleString('en')}: includes the old-space garbage V8 lets pile up between full collections`,
      ratio: ratiosOf(mib(million), mib(baseline)),
      target: null,
      higherIsBetter: false,
      absolute: {
        complete,
        peakRss: absoluteOf(mib(million), 'MiB'),
        baselinePeakRss: absoluteOf(mib(baseline), 'MiB'),
        rssGrowth: absoluteOf(
          million.map((result) => (result.peakRssBytes - result.startRssBytes) / 2 ** 20),
          'MiB over the RSS before the first delivery',
        ),
      },
    },
  ];
}
