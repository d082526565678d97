import { PaymentValidationError } from '@paymount/core';
import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

const SUBJECT = 'BullMQ connection for the webhook queue';

function refused(path: string, message: string): PaymentValidationError {
  return new PaymentValidationError(SUBJECT, [{ path, rule: 'type', message }]);
}

/**
 * The `client` or `connection` option of `createWebhookQueue` for a
 * connection BullMQ takes, such as the one given to `@nestjs/bullmq`'s
 * `BullModule.forRoot`: an ioredis client is duplicated by the queue (its
 * settings and life stay the app's), options and a `{ url }` are used as
 * they are, none means BullMQ's default (Redis on localhost:6379).
 *
 * @example
 * createWebhookQueue({ ...webhookQueueConnection(bullConfig.connection), name: 'payments' })
 */
export function webhookQueueConnection(connection: ConnectionOptions | undefined): { client: Redis } | { connection: string | RedisOptions } {
  if (connection === undefined) return { connection: {} };
  if (connection instanceof Redis) return { client: connection };
  if ((connection as { isCluster?: unknown }).isCluster === true) {
    throw refused('connection', 'is a Redis Cluster, which the webhook queue does not support: give it a standalone Redis (an ioredis client, options or a redis:// URL)');
  }
  if (typeof (connection as { duplicate?: unknown }).duplicate === 'function') {
    throw refused('connection', 'must be an ioredis client (the webhook queue connects with ioredis), not a node-redis or Bun client: pass its redis:// URL instead');
  }
  const { url, ...options } = connection as RedisOptions & { url?: string };
  if (url === undefined) return { connection: options };
  // ioredis reads a URL or options: `url` beside other options would be ignored and localhost used.
  if (Object.keys(options).length > 0) {
    throw refused('connection.url', 'must be given either `url` or the other options, not both: put everything in the URL (redis://user:password@host:port/db), or use host, port and the rest');
  }
  return { connection: url };
}
