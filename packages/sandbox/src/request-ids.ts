/**
 * Remembers X-Client-Request-Id values for the duplicate window (10 minutes of
 * service time). Bounded: ids older than the window are dropped as new ones
 * arrive, and past `maxEntries` the oldest go first.
 */
export class RequestIdWindow {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Records `id` at `now`; false when it was already seen within the window. */
  claim(id: string, now: number): boolean {
    this.evict(now);
    const at = this.seen.get(id);
    if (at !== undefined && Math.abs(now - at) < this.windowMs) return false;
    this.seen.delete(id);
    this.seen.set(id, now);
    return true;
  }

  private evict(now: number): void {
    // Map iteration is insertion order, i.e. oldest first, so stop at the first fresh id.
    for (const [id, at] of this.seen) {
      if (this.seen.size <= this.maxEntries && now - at < this.windowMs) break;
      this.seen.delete(id);
    }
  }
}
