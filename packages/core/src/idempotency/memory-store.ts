import { BoundedExpiringMap } from '../bounded-expiring-map';
import type { IdempotencyKeyState, IdempotencyStore } from './store';

export interface MemoryIdempotencyStoreOptions {
  /** Most keys held at once. Default 10 000. */
  maxEntries?: number;
  /** Clock for expiry; injectable for tests. */
  clock?: { now(): number };
}

export const DEFAULT_MEMORY_STORE_MAX_ENTRIES = 10_000;

/**
 * A process-local IdempotencyStore. Memory is bounded by `maxEntries`: when the
 * store is full, expired keys are swept first and, if it is still full, the
 * least recently claimed key is dropped (completing a key leaves it in place). The webhook route writes one key per
 * distinct event (a duplicate or a replay writes nothing), so dropping a live
 * key means an event older than the newest `maxEntries` ones could be handled
 * again: size it above the number of events expected within the dedupe TTL.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly maxEntries: number;
  private readonly clock: { now(): number };
  private readonly entries: BoundedExpiringMap<IdempotencyKeyState>;

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    this.entries = new BoundedExpiringMap(options.maxEntries ?? DEFAULT_MEMORY_STORE_MAX_ENTRIES, 'MemoryIdempotencyStore: maxEntries');
    this.maxEntries = this.entries.maxEntries;
    this.clock = options.clock ?? Date;
  }

  get size(): number {
    return this.entries.size;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    if (this.entries.get(key, now) !== undefined) return false;
    this.entries.set(key, 'processing', now + ttlMs, now);
    return true;
  }

  async release(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    if (!this.entries.update(key, 'done', now + ttlMs, now)) this.entries.set(key, 'done', now + ttlMs, now);
  }

  /** A claim is told apart by its key only: one process holds one claim per key, whichever of its deliveries made it. */
  async renew(key: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    return this.entries.get(key, now) === 'processing' && this.entries.update(key, 'processing', now + ttlMs, now);
  }

  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    return this.entries.get(key, this.clock.now());
  }
}
