import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { consoleLogger, PaymentStoreUnavailableError, silentLogger, type Logger } from '@paymount/core';
import { validate } from '@paymount/core/schemas';
import type { Cluster, Redis } from 'ioredis';
import { createRedisClient, type RedisConnection } from './connection';
import { checkDurabilityOnce } from './durability-check';
import { redisStoreOptionsSchema } from './options-schema';
import { OrphanedClaims } from './orphaned-claims';
import { RELEASE_IF_OWNED } from './scripts';

/** How a store reaches Redis: the options every store of this package takes. */
export interface RedisStoreConnectionOptions {
  /**
   * A connected ioredis client (`Redis` or `Cluster`) to use. The store does
   * not close it. Give it FAIL_FAST_REDIS_OPTIONS (see the README).
   */
  client?: Redis | Cluster;
  /** Or where to connect; the store then creates the client with FAIL_FAST_REDIS_OPTIONS and closes it in close(). */
  connection?: RedisConnection;
  /** Prefix of every key the store writes. */
  keyPrefix?: string;
  /**
   * Told about connection errors (debug), claims cleaned up after an outage
   * (info) and a Redis that can lose what the stores write (warn, or error
   * under `requireDurability`). Default: nothing, except that last, on the console.
   */
  logger?: Logger;
  /**
   * Refuse a Redis that could lose order attempts, locks or handled events:
   * checked on the first connection, it must run with `appendonly yes` and
   * `maxmemory-policy noeviction`, and its settings must be readable (CONFIG
   * GET, or INFO where CONFIG is disabled). Otherwise every store operation
   * fails with PaymentStoreUnavailableError (the routes answer 503) and the
   * reason is logged once as an error. Default false: the same check only warns.
   */
  requireDurability?: boolean;
}

/**
 * One store's use of a Redis client: commands only on a ready connection,
 * every failure as PaymentStoreUnavailableError, and token claims
 * (`SET NX PX` with a random token, freed by a compare-and-delete) whose
 * outcome a dropped connection left unknown undone once Redis answers again.
 */
export class RedisLink {
  readonly client: Redis | Cluster;
  private readonly ownsClient: boolean;
  private readonly orphans: OrphanedClaims;
  private readonly onReady = () => void this.orphans.undo();
  private readonly onError = (error: unknown) => this.logger.debug({ err: error }, `${this.name}: connection error`);
  /** Why this Redis is refused (requireDurability); undefined when it is not, or when durability is not required. */
  private readonly refusal: Promise<string | undefined> | undefined;

  constructor(
    options: RedisStoreConnectionOptions,
    private readonly name: string,
    readonly logger: Logger = options.logger ?? silentLogger,
  ) {
    validate(redisStoreOptionsSchema, options, `${name} options`);
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? createRedisClient(options.connection);
    this.orphans = new OrphanedClaims((key, token) => this.releaseIfOwned(key, token), this.logger);
    const required = options.requireDurability === true;
    const durability = checkDurabilityOnce(this.client, options.logger ?? consoleLogger, required);
    this.refusal = required ? durability : undefined;
    this.client.on('ready', this.onReady);
    // A client the store created is the store's to watch; without a listener ioredis prints every reconnect error.
    if (this.ownsClient) this.client.on('error', this.onError);
    // A `lazyConnect` client connects on its first command, which the store never sends before it is ready.
    if (this.client.status === 'wait') this.client.connect().catch(() => {});
  }

  /** `SET key token NX PX ttl`: the token of the claim, or undefined when the key is taken. */
  async claim(key: string, ttlMs: number): Promise<string | undefined> {
    const token = randomUUID();
    const answer = await this.run(
      'claim',
      () => this.client.set(key, token, 'PX', ttlMs, 'NX'),
      // The SET may have reached Redis before the connection dropped: undo it, if so, once Redis is back.
      () => this.orphans.add(key, token),
    );
    return answer === 'OK' ? token : undefined;
  }

  /** Deletes `key` while it still holds `token`; if that cannot be done now, it is done once Redis answers again. */
  async release(key: string, token: string): Promise<void> {
    try {
      await this.run('release', () => this.releaseIfOwned(key, token));
    } catch (error) {
      this.orphans.add(key, token);
      throw error;
    }
  }

  /**
   * Runs one command only on a ready connection, so no command waits in a queue; any failure is a
   * PaymentStoreUnavailableError. `onSentAndFailed` runs only for a command that went out: one refused
   * before sending changed nothing in Redis, so there is nothing to undo later.
   */
  async run<T>(operation: string, command: () => Promise<T>, onSentAndFailed?: () => void): Promise<T> {
    if (this.client.status !== 'ready') {
      throw new PaymentStoreUnavailableError(`Redis is not reachable (connection ${this.client.status}); ${operation} not attempted.`);
    }
    const refused = this.refusal && (await this.refusal);
    if (refused) throw new PaymentStoreUnavailableError(`Redis refused (requireDurability): ${refused}`);
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
    return this.client.eval(RELEASE_IF_OWNED, 1, key, token);
  }
}
