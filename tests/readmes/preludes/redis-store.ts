// Prelude "redis-store": the store the section above created.
import type { RedisIdempotencyStore } from '@paymount/redis';
declare const store: RedisIdempotencyStore;
