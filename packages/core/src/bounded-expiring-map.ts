/**
 * A Map whose entries expire, holding at most `maxEntries`: when full, expired
 * entries are swept first and, if it is still full, the least recently
 * written entry is dropped. What the process-local stores keep their keys in.
 */
export class BoundedExpiringMap<V> {
  /** key → value and expiry (epoch ms). A Map keeps write order, which makes "oldest" cheap to find. */
  private readonly entries = new Map<string, { value: V; expiry: number }>();
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
    this.entries.set(key, { value, expiry });
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
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}
