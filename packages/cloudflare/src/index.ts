export { PaymountState } from './paymount-state';
export { durableObjectStores, type DurableObjectStores, type DurableObjectStoresOptions } from './durable-object-stores';
export { DurableObjectOrderAttemptStore } from './durable-object-order-store';
export { DurableObjectIdempotencyStore } from './durable-object-idempotency-store';
export { EventCommit, withEventCommit, type DurableObjectEventContext } from './event-commit';
export type { PaymountStateNamespace } from './paymount-objects';
export type { D1Database, D1PreparedStatement } from './workers-types';
