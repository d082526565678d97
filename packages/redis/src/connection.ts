import { Redis, type RedisOptions } from 'ioredis';

/**
 * ioredis settings under which a store fails fast instead of holding a
 * webhook open: the route then answers 503 at once and the service retries.
 *
 * - `enableOfflineQueue: false`: a command while disconnected fails at once
 *   instead of waiting for a reconnect that may come after the sender gave up.
 * - `maxRetriesPerRequest: 0` and `autoResendUnfulfilledCommands: false`: a
 *   command in flight when the connection drops fails, and is never re-sent
 *   later, when no one awaits its answer any more (a late `SET NX` would
 *   claim a key for nobody).
 * - `commandTimeout` / `connectTimeout`: a hung server is noticed well within
 *   the service's 10-second webhook time-out.
 * - `retryStrategy`: keep reconnecting, at most 2 s apart, so the store
 *   recovers on its own when Redis is back.
 */
export const FAIL_FAST_REDIS_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 2_000,
  connectTimeout: 2_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
} as const satisfies RedisOptions;

/** Where to connect: a `redis://` / `rediss://` URL, or ioredis options. */
export type RedisConnection = string | RedisOptions;

/** An ioredis client with FAIL_FAST_REDIS_OPTIONS; options given here override them. */
export function createRedisClient(connection: RedisConnection = {}): Redis {
  return typeof connection === 'string'
    ? new Redis(connection, FAIL_FAST_REDIS_OPTIONS)
    : new Redis({ ...FAIL_FAST_REDIS_OPTIONS, ...connection });
}
