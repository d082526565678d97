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
 * least recently written key is dropped. The webhook route writes one key per
 * distinct event (a duplicate or a replay writes nothing), so dropping a live
 * key means an event older than the newest `maxEntries` ones could be handled
 * again: size it above the number of events expected within the dedupe TTL.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly maxEntries: number;
  private readonly clock: { now(): number };
  /** key → expiry (epoch ms) and state. A Map keeps write order, which makes "oldest" cheap to find. */
  private readonly entries = new Map<string, { expiry: number; state: IdempotencyKeyState }>();
  /** No entry expires before this (a lower bound), so a sweep before then would find nothing to drop. */
  private earliestExpiry = Number.POSITIVE_INFINITY;

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_STORE_MAX_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('MemoryIdempotencyStore: maxEntries must be a positive integer.');
    }
    this.maxEntries = maxEntries;
    this.clock = options.clock ?? Date;
  }

  get size(): number {
    return this.entries.size;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiry > now) return false;
    this.write(key, { expiry: now + ttlMs, state: 'processing' }, now);
    return true;
  }

  async release(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    this.write(key, { expiry: now + ttlMs, state: 'done' }, now);
  }

  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiry > this.clock.now() ? entry.state : undefined;
  }

  private write(key: string, entry: { expiry: number; state: IdempotencyKeyState }, now: number): void {
    // Re-inserting moves the key to the newest end of the Map's order.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.makeRoom(now);
    this.entries.set(key, entry);
    if (entry.expiry < this.earliestExpiry) this.earliestExpiry = entry.expiry;
  }

  private makeRoom(now: number): void {
    // A full sweep only when some key may have expired: otherwise a full store would pay O(maxEntries) per write.
    if (this.earliestExpiry <= now) {
      this.earliestExpiry = Number.POSITIVE_INFINITY;
      for (const [key, entry] of this.entries) {
        if (entry.expiry <= now) this.entries.delete(key);
        else if (entry.expiry < this.earliestExpiry) this.earliestExpiry = entry.expiry;
      }
    }
    if (this.entries.size < this.maxEntries) return;
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}
