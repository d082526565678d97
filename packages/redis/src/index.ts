export { DEFAULT_KEY_PREFIX, RedisIdempotencyStore, type RedisIdempotencyStoreOptions } from './redis-idempotency-store';
export { createRedisClient, FAIL_FAST_REDIS_OPTIONS, type RedisConnection } from './connection';
