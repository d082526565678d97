import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  PaymentStoreUnavailableError,
  silentLogger,
  validate,
  type IdempotencyKeyState,
  type IdempotencyStore,
  type Logger,
} from '@paymount/core';
import type { Cluster, Redis } from 'ioredis';
import { createRedisClient, type RedisConnection } from './connection';
import { redisStoreOptionsSchema } from './options-schema';
import { OrphanedClaims } from './orphaned-claims';
import { COMPLETE_IF_OWNED_OR_FREE, RELEASE_IF_OWNED } from './scripts';

export const DEFAULT_KEY_PREFIX = 'paymount:idempotency:';
const DONE = 'done';

export interface RedisIdempotencyStoreOptions {
  /**
   * A connected ioredis client (`Redis` or `Cluster`) to use. The store does
   * not close it. Give it FAIL_FAST_REDIS_OPTIONS (see the README).
   */
  client?: Redis | Cluster;
  /** Or where to connect; the store then creates the client with FAIL_FAST_REDIS_OPTIONS and closes it in close(). */
  connection?: RedisConnection;
  /** Prefix of every key the store writes; default `paymount:idempotency:`. */
  keyPrefix?: string;
  /** Told about connection errors (debug) and claims cleaned up after an outage (info). */
  logger?: Logger;
}

/**
 * An IdempotencyStore shared by every app instance through Redis.
 *
 * `claim` is `SET key token NX PX ttl`: one instance wins, atomically. The
 * random token marks the claim as this process's, so `release` and `complete`
 * are compare-and-set scripts that never free or overwrite a claim another
 * instance took after ours expired.
 *
 * When Redis cannot be used, every operation throws
 * PaymentStoreUnavailableError at once (the webhook route answers 503). A
 * claim or release whose outcome is unknown because the connection dropped
 * is undone once Redis is reachable again, so a claim nobody holds does not
 * turn the service's retries into duplicates.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly client: Redis | Cluster;
  readonly keyPrefix: string;
  private readonly ownsClient: boolean;
  private readonly logger: Logger;
  /** key → token of the claims this process holds. */
  private readonly held = new Map<string, string>();
  private readonly orphans: OrphanedClaims;
  private readonly onReady = () => void this.orphans.undo();
  private readonly onError = (error: unknown) => this.logger.debug({ err: error }, 'redis idempotency store: connection error');

  constructor(options: RedisIdempotencyStoreOptions) {
    validate(redisStoreOptionsSchema, options, 'Redis idempotency store options');
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? createRedisClient(options.connection);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.logger = options.logger ?? silentLogger;
    this.orphans = new OrphanedClaims((key, token) => this.releaseIfOwned(key, token), this.logger);
    this.client.on('ready', this.onReady);
    // A client the store created is the store's to watch; without a listener ioredis prints every reconnect error.
    if (this.ownsClient) this.client.on('error', this.onError);
    // A `lazyConnect` client connects on its first command, which the store never sends before it is ready.
    if (this.client.status === 'wait') this.client.connect().catch(() => {});
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const token = randomUUID();
    const answer = await this.run(
      'claim',
      () => this.client.set(this.keyPrefix + key, token, 'PX', ttlMs, 'NX'),
      // The SET may have reached Redis before the connection dropped: undo it, if so, once Redis is back.
      () => this.orphans.add(key, token),
    );
    if (answer !== 'OK') return false;
    this.held.set(key, token);
    return true;
  }

  async release(key: string): Promise<void> {
    const token = this.held.get(key);
    if (token === undefined) return;
    this.held.delete(key);
    try {
      await this.run('release', () => this.releaseIfOwned(key, token));
    } catch (error) {
      this.orphans.add(key, token);
      throw error;
    }
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    const token = this.held.get(key) ?? '';
    this.held.delete(key);
    await this.run('complete', () =>
      this.client.eval(COMPLETE_IF_OWNED_OR_FREE, 1, this.keyPrefix + key, token, DONE, ttlMs),
    );
  }

  /** 'done' once completed, 'processing' while claimed (by any instance), undefined when free. */
  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    const value = await this.run('state', () => this.client.get(this.keyPrefix + key));
    if (value === null) return undefined;
    return value === DONE ? 'done' : 'processing';
  }

  /** Stops watching the client, and closes it if the store created it. */
  async close(): Promise<void> {
    this.client.off('ready', this.onReady);
    if (!this.ownsClient) return;
    if (this.client.status === 'ready') {
      const ended = once(this.client, 'end');
      // quit() lets pending answers arrive first; if it cannot be sent, the connection is cut.
      this.client.quit().catch(() => this.client.disconnect());
      await ended;
    } else {
      // Not connected (e.g. between reconnect attempts): stop reconnecting; there is nothing to wait for.
      this.client.disconnect();
    }
    this.client.off('error', this.onError);
  }

  private releaseIfOwned(key: string, token: string): Promise<unknown> {
    return this.client.eval(RELEASE_IF_OWNED, 1, this.keyPrefix + key, token);
  }

  /**
   * Runs one command only on a ready connection, so no command waits in a queue; any failure is a
   * PaymentStoreUnavailableError. `onSentAndFailed` runs only for a command that went out: one refused
   * before sending changed nothing in Redis, so there is nothing to undo later.
   */
  private async run<T>(operation: string, command: () => Promise<T>, onSentAndFailed?: () => void): Promise<T> {
    if (this.client.status !== 'ready') {
      throw new PaymentStoreUnavailableError(`Redis is not reachable (connection ${this.client.status}); ${operation} not attempted.`);
    }
    try {
      const result = await command();
      // A healthy answer means claims left by an earlier time-out can be undone now, not only after a reconnect.
      if (this.orphans.size > 0) void this.orphans.undo();
      return result;
    } catch (error) {
      onSentAndFailed?.();
      const reason = error instanceof Error ? error.message : String(error);
      throw new PaymentStoreUnavailableError(`Redis ${operation} failed: ${reason}`, { cause: error });
    }
  }
}
