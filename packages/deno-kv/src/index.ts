export { denoKvStores, DEFAULT_KEY_PREFIX, type DenoKvStores, type DenoKvStoresOptions } from './deno-kv-stores';
export { DenoKvIdempotencyStore } from './deno-kv-idempotency-store';
export { ClaimLostError } from '@paymount/core';
export { DenoKvOrderAttemptStore } from './deno-kv-order-attempt-store';
export { inKvCommit, type KvEventContext, type KvEventWrites } from './event-writes';
export type { KvAtomic, KvEntry, KvEntryMaybe, KvKey, KvKeyPart, KvLike } from './kv';
export type { StoreSettings } from './store-settings';
