import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { describeIdempotencyStoreContract } from '../../../tools/idempotency-store-contract';
import { describeOrderAttemptStoreContract } from '../../../tools/order-store-contract';
import { durableObjectStores, type D1Database, type PaymountStateNamespace } from '../src/index';

// Run by the workerd project of vitest.config.ts: the suites themselves (assertions, timers, concurrency) run in
// workerd, beside support/contracts-main.ts, on real Durable Objects with SQLite storage and a real D1 database.
const { PAYMOUNT_STATE, DB } = env as { PAYMOUNT_STATE: PaymountStateNamespace; DB: D1Database };
/** One durableObjectStores(), as the routes of one isolate make it. */
const stores = () => durableObjectStores(PAYMOUNT_STATE, { d1: DB });

it('runs inside workerd, not on Node', () => {
  // The runtime's own name; Node 20 has no navigator, and later Nodes name themselves.
  expect((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent).toBe('Cloudflare-Workers');
});

describeOrderAttemptStoreContract('durableObjectStores (workerd)', {
  create: async () => stores().orders,
  stores: async (count) => Array.from({ length: count }, () => stores().orders),
});

describeIdempotencyStoreContract('durableObjectStores (workerd)', {
  create: async () => stores().idempotency,
  instances: async () => [stores().idempotency, stores().idempotency],
});
