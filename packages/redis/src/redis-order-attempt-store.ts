import {
  PaymentStoreUnavailableError,
  type OrderAttempt,
  type OrderAttemptStore,
  type OrderAttemptUpdate,
} from '@paymount/core';
import { isFinalState, isUnsettled, orderAttemptSchema } from '@paymount/core/stores';
import type { Cluster, Redis } from 'ioredis';
import { RedisLink, type RedisStoreConnectionOptions } from './redis-link';
import { REPLACE_ATTEMPT, SETTLE_IF_CURRENT } from './scripts';

export const DEFAULT_ORDER_KEY_PREFIX = 'paymount:orders:';

export interface RedisOrderAttemptStoreOptions extends RedisStoreConnectionOptions {
  /** Prefix of every key the store writes; default `paymount:orders:`. */
  keyPrefix?: string;
}

const NUMBER_FIELDS = new Set(['sequence', 'amount', 'inFlightUntil', 'expiresAt', 'updatedAt']);

function toHashArgs(attempt: OrderAttempt): string[] {
  return Object.entries(attempt).flatMap(([field, value]) => (value === undefined ? [] : [field, String(value)]));
}

/**
 * An OrderAttemptStore shared by every app instance through Redis.
 *
 * - `<prefix>lock:<order>`: the order's lock, `SET NX PX` with a random
 *   token, freed by a compare-and-delete (a late unlock never frees a lock
 *   another instance took after ours expired).
 * - `<prefix>attempt:<order>`: the current attempt, a hash replaced or
 *   settled by Lua scripts, so every change is atomic; it expires with the
 *   attempt TTL.
 * - `<prefix>unsettled`: a sorted set of the orders whose attempt is
 *   unsettled, scored by its last change, for reconciliation. It is a hint,
 *   kept with separate commands (every key stays on its own cluster slot): an
 *   entry whose attempt settled or expired is dropped when read.
 *
 * When Redis cannot be used, every operation throws
 * PaymentStoreUnavailableError at once (the payment routes answer 503 and
 * send nothing).
 */
export class RedisOrderAttemptStore implements OrderAttemptStore {
  readonly keyPrefix: string;
  private readonly link: RedisLink;

  constructor(options: RedisOrderAttemptStoreOptions) {
    this.link = new RedisLink(options, 'Redis order attempt store');
    this.keyPrefix = options.keyPrefix ?? DEFAULT_ORDER_KEY_PREFIX;
  }

  get client(): Redis | Cluster {
    return this.link.client;
  }

  lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    return this.link.claim(this.lockKey(referenceOrderId), ttlMs);
  }

  unlock(referenceOrderId: string, token: string): Promise<void> {
    return this.link.release(this.lockKey(referenceOrderId), token);
  }

  async get(referenceOrderId: string): Promise<OrderAttempt | undefined> {
    const hash = await this.link.run('get', () => this.client.hgetall(this.attemptKey(referenceOrderId)));
    if (Object.keys(hash).length === 0) return undefined;
    const fields = Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, NUMBER_FIELDS.has(field) ? Number(value) : value]));
    const parsed = orderAttemptSchema.safeParse(fields);
    if (!parsed.success) {
      // Refusing is safe (nothing is charged); trusting an unreadable attempt might not be.
      throw new PaymentStoreUnavailableError(`Redis holds an unreadable attempt for order ${referenceOrderId}; delete ${this.attemptKey(referenceOrderId)} once checked.`);
    }
    return parsed.data as OrderAttempt;
  }

  async put(attempt: OrderAttempt, ttlMs: number): Promise<void> {
    const { referenceOrderId } = attempt;
    // Indexed before it is written, so an unsettled attempt is never missing from the index.
    if (isUnsettled(attempt)) await this.link.run('index', () => this.client.zadd(this.unsettledKey(), attempt.updatedAt, referenceOrderId));
    await this.link.run('put', () => this.client.eval(REPLACE_ATTEMPT, 1, this.attemptKey(referenceOrderId), ttlMs, ...toHashArgs(attempt)));
    if (!isUnsettled(attempt)) await this.unindex(referenceOrderId);
  }

  async delete(referenceOrderId: string): Promise<void> {
    await this.link.run('delete', () => this.client.del(this.attemptKey(referenceOrderId)));
    await this.unindex(referenceOrderId);
  }

  async settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean> {
    const handled = update.handled === true && isFinalState(update.state);
    const result = (await this.link.run('settle', () =>
      this.client.eval(
        SETTLE_IF_CURRENT,
        1,
        this.attemptKey(referenceOrderId),
        transactionRequestId,
        update.state,
        update.transactionId ?? '',
        handled ? '1' : '0',
        update.updatedAt,
        ttlMs,
      ),
    )) as [string, string] | null;
    if (result === null) return false;
    const [state, handledState] = result;
    if (state === handledState) await this.unindex(referenceOrderId);
    else await this.link.run('index', () => this.client.zadd(this.unsettledKey(), update.updatedAt, referenceOrderId));
    return true;
  }

  async unsettled({ changedBefore, limit }: { changedBefore: number; limit: number }): Promise<OrderAttempt[]> {
    const orders = await this.link.run('unsettled', () =>
      this.client.zrangebyscore(this.unsettledKey(), '-inf', changedBefore, 'LIMIT', 0, limit),
    );
    const attempts: OrderAttempt[] = [];
    for (const referenceOrderId of orders) {
      const attempt = await this.get(referenceOrderId);
      if (attempt !== undefined && isUnsettled(attempt)) attempts.push(attempt);
      else await this.unindex(referenceOrderId);
    }
    return attempts;
  }

  /** Stops watching the client, and closes it if the store created it. */
  close(): Promise<void> {
    return this.link.close();
  }

  private unindex(referenceOrderId: string): Promise<unknown> {
    return this.link.run('unindex', () => this.client.zrem(this.unsettledKey(), referenceOrderId));
  }

  private lockKey(referenceOrderId: string): string {
    return `${this.keyPrefix}lock:${referenceOrderId}`;
  }

  private attemptKey(referenceOrderId: string): string {
    return `${this.keyPrefix}attempt:${referenceOrderId}`;
  }

  private unsettledKey(): string {
    return `${this.keyPrefix}unsettled`;
  }
}
