import { MemoryIdempotencyStore } from '../idempotency/memory-store';
import type { IdempotencyStore } from '../idempotency/store';
import type { Logger } from '../logger';
import { MemoryOrderAttemptStore } from '../orders/memory-store';
import type { OrderAttemptStore } from '../orders/store';
import { platform } from '../platform/current';

let warned = false;

/**
 * On a runtime where a request may land in a fresh isolate (workerd, the
 * edge runtime), a memory store holds what one isolate saw: the one-order-one-
 * charge guard and webhook deduplication then protect nothing across requests.
 * Said once per isolate, at start-up, through the logger (the console by default).
 */
export function warnIfMemoryIsIsolated(stores: { orders: OrderAttemptStore; webhook: IdempotencyStore }, logger: Logger): void {
  const runtime = platform.isolatedMemory();
  if (runtime === undefined || warned) return;
  const inMemory = [
    ...(stores.orders instanceof MemoryOrderAttemptStore ? ['orders.store'] : []),
    ...(stores.webhook instanceof MemoryIdempotencyStore ? ['store'] : []),
  ];
  if (inMemory.length === 0) return;
  warned = true;
  logger.warn(
    { runtime, inMemory },
    `paymount's in-memory stores protect nothing across requests on ${runtime}: each request may run in a new isolate, ` +
      'so the one-order-one-charge guard and webhook deduplication hold only within one. None of paymount\'s stores runs here yet ' +
      '(@paymount/redis and @paymount/postgres need Node): pass `orders.store` and `store` implementations backed by storage ' +
      "every isolate shares (the core README's Runtimes section says how), or serve the routes from Node.",
  );
}
