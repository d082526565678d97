import { PaymentStoreUnavailableError } from '../errors';
import type { OrderAttemptStore } from './store';

const STORE = 'order attempt store';

async function checked<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw PaymentStoreUnavailableError.from(error, STORE);
  }
}

/**
 * The merchant's store with every failure turned into
 * PaymentStoreUnavailableError, so that a broken or unreachable store is
 * answered 503 (nothing sent) whatever a custom store throws.
 */
export function checkedOrderStore(store: OrderAttemptStore): OrderAttemptStore {
  return {
    lock: (referenceOrderId, ttlMs) => checked(() => store.lock(referenceOrderId, ttlMs)),
    unlock: (referenceOrderId, token) => checked(() => store.unlock(referenceOrderId, token)),
    get: (referenceOrderId) => checked(() => store.get(referenceOrderId)),
    put: (attempt, ttlMs) => checked(() => store.put(attempt, ttlMs)),
    delete: (referenceOrderId) => checked(() => store.delete(referenceOrderId)),
    settle: (referenceOrderId, transactionRequestId, update, ttlMs) =>
      checked(() => store.settle(referenceOrderId, transactionRequestId, update, ttlMs)),
    unsettled: (options) => checked(() => store.unsettled(options)),
  };
}
