// `@paymount/core/stores`: what an implementation of `OrderAttemptStore` (Redis, SQL, ...) needs
// beyond the interfaces and types the root exports: the attempt's states, its settle rule and the
// schema a stored record is checked against when read back; for an IdempotencyStore with runHandled,
// the wrapper of handlers that write in its commit (ClaimLostError, which its runHandled rejects with,
// is the root's: a merchant may meet it). Listed by name; the report of this entry is api/core.stores.md.
export { isFinalState, isUnsettled, settledAttempt } from '../orders/store';
export { orderAttemptSchema } from '../schemas/order-attempt';
export { ORDER_ATTEMPT_STATES } from '../shared/types';
export { type EventCommitKind, inEventCommit } from '../webhook-dedupe/store';
