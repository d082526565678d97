import { Redis, type RedisOptions } from 'ioredis';

/**
 * The queue's own connection: an enqueue while Redis is down or hung fails
 * within seconds (the route answers 503 and the service retries) instead of
 * waiting in ioredis' offline queue after the service gave up. BullMQ still
 * waits for a first connection without end: the queue's `timeoutMs` bounds that.
 */
export const PRODUCER_REDIS_OPTIONS = {
  enableOfflineQueue: false,
  connectTimeout: 2_000,
  commandTimeout: 2_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
} as const satisfies RedisOptions;

/** A worker's connection: BullMQ's blocking reads need every command kept until Redis answers, across reconnects. */
export const WORKER_REDIS_OPTIONS = { maxRetriesPerRequest: null } as const satisfies RedisOptions;

/**
 * Opens connections to the Redis the queue lives in, from a URL, ioredis
 * options, or an existing client (duplicated, so its own settings and life
 * are left alone), and closes every one it opened.
 */
export class RedisConnections {
  private readonly opened = new Set<Redis>();

  constructor(private readonly source: string | RedisOptions | Redis) {}

  open(overrides: RedisOptions): Redis {
    const { source } = this;
    const client =
      source instanceof Redis ? source.duplicate(overrides) : typeof source === 'string' ? new Redis(source, overrides) : new Redis({ ...source, ...overrides });
    this.opened.add(client);
    return client;
  }

  async closeAll(): Promise<void> {
    const clients = [...this.opened];
    this.opened.clear();
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  }
}
