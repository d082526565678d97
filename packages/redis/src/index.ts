export { DEFAULT_KEY_PREFIX, RedisIdempotencyStore, type RedisIdempotencyStoreOptions } from './redis-idempotency-store';
export { DEFAULT_ORDER_KEY_PREFIX, RedisOrderAttemptStore, type RedisOrderAttemptStoreOptions } from './redis-order-attempt-store';
export { createRedisStores, type RedisStores, type RedisStoresOptions } from './redis-stores';
export type { RedisStoreConnectionOptions } from './redis-link';
export { createRedisClient, FAIL_FAST_REDIS_OPTIONS, type RedisConnection } from './connection';
export { durabilityRisksOf, type DurabilityRisk } from './durability-check';
export { readDurabilitySettings, type DurabilitySettings } from './durability-settings';
