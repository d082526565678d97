import { PaymountState as PaymountStateObject, type PaymountStateMethods } from './paymount-state';

/**
 * The Durable Object class behind durableObjectStores(): re-export it from the
 * Worker's entry and bind it with a `new_sqlite_classes` migration (see the README).
 */
export const PaymountState: new (ctx: never, env: never) => PaymountStateMethods = PaymountStateObject;
export type PaymountState = PaymountStateMethods;
export type { PaymountStateMethods };
export { durableObjectStores, type DurableObjectStores, type DurableObjectStoresOptions } from './durable-object-stores';
export { DurableObjectOrderAttemptStore } from './durable-object-order-store';
export { DurableObjectIdempotencyStore } from './durable-object-idempotency-store';
export { EventCommit, withEventCommit, type DurableObjectEventContext } from './event-commit';
export type { PaymountStateNamespace } from './paymount-objects';
export type { D1Database, D1PreparedStatement } from './workers-types';
