import type { Logger } from '@paymount/core';
import type { Redis } from 'ioredis';

/** What to check when the queue's Redis cannot be used: the two causes seen in practice. */
export const UNREACHABLE_REDIS_FIX = 'Check the Redis URL the queue was given (`connection`, or --redis / REDIS_URL for paymount-queue) and that Redis is up.';

/** Where a client connects, for a log line: host and port (or socket path), never the URL with its password. */
export function redisAddress(client: Redis): string {
  const { host, port, path } = client.options;
  return path ?? `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/**
 * The error listener of the queue's connection: the first error of an outage
 * (Redis never reached included) is logged as an error that says what to
 * check; the rest, one for each reconnect attempt, at debug, until the
 * connection is ready again.
 */
export function connectionErrorReporter(client: Redis, logger: Logger, queue: string): (error: unknown) => void {
  const redis = redisAddress(client);
  let reported = false;
  client.on('ready', () => {
    if (reported) logger.info({ queue, redis }, 'webhook queue: Redis reachable again; deliveries are queued');
    reported = false;
  });
  return (error) => {
    if (reported) {
      logger.debug({ err: error, queue, redis }, 'webhook queue: connection error');
      return;
    }
    reported = true;
    logger.error(
      { err: error, queue, redis },
      `webhook queue: Redis at ${redis} cannot be used, so webhook deliveries are answered 503 (the service retries them) until it can. ${UNREACHABLE_REDIS_FIX}`,
    );
  };
}
