/** One entry, also queued in write order (BoundedExpiringMap's `order`). */
interface Entry<V> {
  key: string;
  value: V;
  /** Epoch ms. */
  expiry: number;
}

/**
 * A Map whose entries expire, holding at most `maxEntries`: when full, expired
 * entries are swept first and, if it is still full, the least recently
 * written entry is dropped. What the process-local stores keep their keys in.
 */
export class BoundedExpiringMap<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /**
   * Entries in write order, oldest at `head`; an item no longer in `entries`
   * (deleted or written again) is skipped. Finding the oldest key through the
   * Map instead (`keys().next()`) walks every deleted slot at its front:
   * measured 4 times slower per write on a full map of 10 000 keys.
   */
  private order: Entry<V>[] = [];
  private head = 0;
  /** No entry expires before this (a lower bound), so a sweep before then would find nothing to drop. */
  private earliestExpiry = Number.POSITIVE_INFINITY;

  /** `option` names the bound where the caller's user set it, for the error, e.g. `MemoryIdempotencyStore: maxEntries`. */
  constructor(
    readonly maxEntries: number,
    option: string,
  ) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`${option} must be a positive integer.`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live value of `key` at `now`, or undefined. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiry > now ? entry.value : undefined;
  }

  set(key: string, value: V, expiry: number, now: number): void {
    // Re-inserting moves the key to the newest end of the Map's order.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.makeRoom(now);
    const entry = { key, value, expiry };
    this.entries.set(key, entry);
    this.order.push(entry);
    this.compactOrder();
    if (expiry < this.earliestExpiry) this.earliestExpiry = expiry;
  }

  /**
   * Rewrites the value and expiry of `key` where it stands in write order,
   * with no new entry: what keeps a store that writes each key twice (claim,
   * then complete) from churning the Map twice per key. False when `key` is
   * absent or expired at `now`.
   */
  update(key: string, value: V, expiry: number, now: number): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiry <= now) return false;
    entry.value = value;
    entry.expiry = expiry;
    if (expiry < this.earliestExpiry) this.earliestExpiry = expiry;
    return true;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Every live entry at `now`, oldest written first. */
  *live(now: number): IterableIterator<[string, V]> {
    for (const [key, entry] of this.entries) if (entry.expiry > now) yield [key, entry.value];
  }

  private makeRoom(now: number): void {
    // A full sweep only when some key may have expired: otherwise a full map would pay O(maxEntries) per write.
    if (this.earliestExpiry <= now) {
      this.earliestExpiry = Number.POSITIVE_INFINITY;
      for (const [key, entry] of this.entries) {
        if (entry.expiry <= now) this.entries.delete(key);
        else if (entry.expiry < this.earliestExpiry) this.earliestExpiry = entry.expiry;
      }
    }
    if (this.entries.size < this.maxEntries) return;
    while (this.head < this.order.length) {
      const oldest = this.order[this.head++]!;
      if (this.entries.get(oldest.key) === oldest) {
        this.entries.delete(oldest.key);
        return;
      }
    }
  }

  /**
   * Rebuilds the order from the Map (which keeps write order too) once skipped
   * or stale items outnumber the live entries: the queue stays within twice
   * the map's size, at an amortised constant cost per write.
   */
  private compactOrder(): void {
    if (this.order.length <= 2 * this.entries.size + 64) return;
    this.order = [...this.entries.values()];
    this.head = 0;
  }
}
