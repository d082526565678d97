import type { IdempotencyKeyState, IdempotencyStore } from '@paymount/core';
import type { Cluster, Redis } from 'ioredis';
import { RedisLink, type RedisStoreConnectionOptions } from './redis-link';
import { COMPLETE_IF_OWNED_OR_FREE, RENEW_IF_OWNED } from './scripts';

export const DEFAULT_KEY_PREFIX = 'paymount:idempotency:';
const DONE = 'done';

export interface RedisIdempotencyStoreOptions extends RedisStoreConnectionOptions {
  /** Prefix of every key the store writes; default `paymount:idempotency:`. */
  keyPrefix?: string;
}

/**
 * An IdempotencyStore shared by every app instance through Redis.
 *
 * `claim` is `SET key token NX PX ttl`: one instance wins, atomically. The
 * random token marks the claim as this process's, so `release`, `renew` and
 * `complete` are compare-and-set scripts that never free, extend or overwrite
 * a claim another instance took after ours expired.
 *
 * When Redis cannot be used, every operation throws
 * PaymentStoreUnavailableError at once (the webhook route answers 503). A
 * claim or release whose outcome is unknown because the connection dropped
 * is undone once Redis is reachable again, so a claim nobody holds does not
 * turn the service's retries into duplicates.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly keyPrefix: string;
  private readonly link: RedisLink;
  /** key → token of the claims this process holds. */
  private readonly held = new Map<string, string>();

  constructor(options: RedisIdempotencyStoreOptions) {
    this.link = new RedisLink(options, 'Redis idempotency store');
    this.keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  }

  get client(): Redis | Cluster {
    return this.link.client;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const token = await this.link.claim(this.keyPrefix + key, ttlMs);
    if (token === undefined) return false;
    this.held.set(key, token);
    return true;
  }

  async release(key: string): Promise<void> {
    const token = this.held.get(key);
    if (token === undefined) return;
    this.held.delete(key);
    await this.link.release(this.keyPrefix + key, token);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    const token = this.held.get(key) ?? '';
    this.held.delete(key);
    await this.link.run('complete', () =>
      this.client.eval(COMPLETE_IF_OWNED_OR_FREE, 1, this.keyPrefix + key, token, DONE, ttlMs),
    );
  }

  /** Extends our claim's TTL while the key still holds our token (see RENEW_IF_OWNED); false once it does not. */
  async renew(key: string, ttlMs: number): Promise<boolean> {
    const token = this.held.get(key);
    if (token === undefined) return false;
    const renewed = await this.link.run('renew', () => this.client.eval(RENEW_IF_OWNED, 1, this.keyPrefix + key, token, ttlMs));
    return renewed === 1;
  }

  /** 'done' once completed, 'processing' while claimed (by any instance), undefined when free. */
  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    const value = await this.link.run('state', () => this.client.get(this.keyPrefix + key));
    if (value === null) return undefined;
    return value === DONE ? 'done' : 'processing';
  }

  /** Stops watching the client, and closes it if the store created it. */
  close(): Promise<void> {
    return this.link.close();
  }
}
