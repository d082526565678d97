export type { IdempotencyKeyState, IdempotencyStore } from './store';
export { DEFAULT_MEMORY_STORE_MAX_ENTRIES, MemoryIdempotencyStore } from './memory-store';
export type { MemoryIdempotencyStoreOptions } from './memory-store';
export { dedupeKeyOf } from './dedupe-key';
