export { isFinalState, isUnsettled, ORDER_ATTEMPT_STATES, orderAttemptSchema, settledAttempt } from './attempt';
export type { FinalOrderAttemptState, OrderAttempt, OrderAttemptKind, OrderAttemptState, OrderAttemptUpdate } from './attempt';
export type { OrderAttemptStore } from './store';
export { DEFAULT_MEMORY_ORDER_STORE_MAX_ORDERS, MemoryOrderAttemptStore } from './memory-store';
export type { MemoryOrderAttemptStoreOptions } from './memory-store';
export { DEFAULT_RECONCILE_LIMIT, DEFAULT_RECONCILE_OLDER_THAN_MS } from './reconcile';
export type { ReconcileOptions, ReconcileSummary } from './reconcile';
export type { CancelCheckoutResult } from './cancel-checkout';
