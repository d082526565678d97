import { OldestFirst } from './oldest-first';

interface Claim {
  id: string;
  at: number;
}

/**
 * Remembers X-Client-Request-Id values for the duplicate window (10 minutes of
 * service time). Bounded: ids older than the window are dropped as new ones
 * arrive, and past `maxEntries` the oldest go first.
 */
export class RequestIdWindow {
  private readonly seen = new Map<string, Claim>();
  /** Every claim in order; one whose id was claimed again since is no longer in `seen` and is skipped. */
  private readonly claims = new OldestFirst<Claim>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Records `id` at `now`; false when it was already seen within the window. */
  claim(id: string, now: number): boolean {
    this.evict(now);
    const previous = this.seen.get(id);
    if (previous !== undefined && Math.abs(now - previous.at) < this.windowMs) return false;
    const claim = { id, at: now };
    this.seen.set(id, claim);
    this.claims.push(claim);
    return true;
  }

  private evict(now: number): void {
    // Oldest first, so stop at the first fresh id.
    for (let claim = this.claims.peek(); claim !== undefined; claim = this.claims.peek()) {
      if (this.seen.get(claim.id) === claim) {
        if (this.seen.size <= this.maxEntries && now - claim.at < this.windowMs) break;
        this.seen.delete(claim.id);
      }
      this.claims.shift();
    }
  }
}
