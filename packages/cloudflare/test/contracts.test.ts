import { afterAll, beforeAll } from 'vitest';
import { describeIdempotencyStoreContract } from '../../../tools/idempotency-store-contract';
import { describeOrderAttemptStoreContract } from '../../../tools/order-store-contract';
import { remoteStores } from './support/remote-stores';
import type { RunningWorker } from '../../../tools/workerd';
import { startStoresWorker } from './support/workerd';

// The suites are vitest on Node (node:timers, vitest's runner); the stores they test run in workerd, on real
// Durable Objects, each call one request to the Worker of support/store-worker.ts.
let worker: RunningWorker | undefined;
beforeAll(async () => {
  worker = await startStoresWorker('support/store-worker.ts');
});
afterAll(() => worker?.dispose());

const running = () => {
  if (worker === undefined) throw new Error('workerd did not start');
  return worker.url;
};

describeOrderAttemptStoreContract('durableObjectStores (workerd)', {
  create: async () => remoteStores(running()).orders,
  stores: async (count) => Array.from({ length: count }, () => remoteStores(running()).orders),
});

describeIdempotencyStoreContract('durableObjectStores (workerd)', {
  create: async () => remoteStores(running()).idempotency,
  instances: async () => [remoteStores(running()).idempotency, remoteStores(running()).idempotency],
});
