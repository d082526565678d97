import type { IdempotencyStore, OrderAttemptStore } from '@paymount/core';
import type { StoreCall } from './store-worker';

const ORDER_METHODS = ['lock', 'unlock', 'get', 'put', 'delete', 'settle', 'unsettled'] as const;
const IDEMPOTENCY_METHODS = ['claim', 'release', 'complete', 'renew', 'state'] as const;

/**
 * The stores of one durableObjectStores() inside the store Worker, called
 * from Node: each method is one request that runs the same method in workerd.
 * Only the call crosses; the store's code and state are in workerd.
 */
export function remoteStores(url: URL): { orders: OrderAttemptStore; idempotency: IdempotencyStore } {
  const instance = crypto.randomUUID();
  const caller = (store: StoreCall['store']) => (method: string) => async (...args: unknown[]) => {
    const answer = await fetch(url, { method: 'POST', body: JSON.stringify({ instance, store, method, args } satisfies StoreCall) });
    const body = (await answer.json()) as { result?: unknown; error?: string };
    if (body.error !== undefined) throw new Error(`in workerd: ${body.error}`);
    return body.result;
  };
  const methods = <M extends string>(names: readonly M[], call: (method: string) => (...args: unknown[]) => Promise<unknown>) =>
    Object.fromEntries(names.map((name) => [name, call(name)]));
  return {
    orders: methods(ORDER_METHODS, caller('orders')) as unknown as OrderAttemptStore,
    idempotency: methods(IDEMPOTENCY_METHODS, caller('idempotency')) as unknown as IdempotencyStore,
  };
}
