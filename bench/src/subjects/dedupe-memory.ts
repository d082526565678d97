import { dedupeKeyOf, MemoryIdempotencyStore, type PaymentEvent } from '@paymount/core';
import { serveHarness } from '../harness/child-side';

export interface DedupeMemoryRequest {
  deliveries: number;
  /** Stop early past this, whatever the count: the run is bounded in time too. */
  maxMs: number;
}

export interface DedupeMemoryResult {
  deliveries: number;
  /** RSS once set up, before the first delivery: the runtime's own share of the peak. */
  startRssBytes: number;
  peakRssBytes: number;
  /** Heap in use after a full garbage collection once the last delivery is in: what the process still holds. */
  retainedHeapBytes: number;
  storeSize: number;
  storeBound: number;
  elapsedMs: number;
}

/** What the webhook route holds a key for by default: 25 s while handling (`processingTtlMs`), a day once handled. */
const PROCESSING_TTL_MS = 25_000;
const DEDUPE_TTL_MS = 24 * 60 * 60_000;

/**
 * Distinct deliveries through the in-memory dedupe store exactly as the
 * webhook route uses it: each event's key claimed, then marked done. Run
 * once per fresh process, so the peak RSS is this run's alone.
 */
serveHarness(async () => ({
  ready: {},
  async handle(request) {
    const { deliveries: wanted, maxMs } = request as DedupeMemoryRequest;
    const startRssBytes = process.memoryUsage().rss;
    const store = new MemoryIdempotencyStore();
    const started = performance.now();
    const deadline = started + maxMs;
    let deliveries = 0;
    for (let n = 0; n < wanted; n++) {
      // The clock is read every 1024 deliveries, not on each.
      if (n % 1024 === 0 && performance.now() > deadline) break;
      deliveries++;
      const payload = {
        transactionId: `txn_${n}`,
        transactionRequestId: `req_${n}`,
        referenceOrderId: `order_${n}`,
        transactionType: 'SALE', transactionStatus: 'S', amount: { orderAmount: 1999, priceCurrency: 'USD' },
      };
      // The event verifyWebhook would hand a handler for this body.
      const event: PaymentEvent = { type: 'payment.succeeded', deliveryId: `dlv_${n}`, timestamp: Date.now(), ...payload, payload };
      const key = await dedupeKeyOf(event);
      if (!(await store.claim(key, PROCESSING_TTL_MS))) throw new Error(`delivery ${n} was taken for a duplicate`);
      await store.complete(key, DEDUPE_TTL_MS);
    }
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;
    // Started with --expose-gc (figures/memory.ts).
    (globalThis as { gc?: () => void }).gc!();
    return {
      deliveries,
      startRssBytes,
      peakRssBytes,
      retainedHeapBytes: process.memoryUsage().heapUsed,
      storeSize: store.size,
      storeBound: store.maxEntries,
      elapsedMs: Math.round(performance.now() - started),
    } satisfies DedupeMemoryResult;
  },
}));
