import { OldestFirst } from './oldest-first';

interface Claim {
  id: string;
  /** Service time of the claim, counted from the first claim: a small integer, kept in the object itself, where an epoch time would take a heap number of its own. */
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
  private origin: number | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Records `id` at `now`; false when it was already seen within the window. */
  claim(id: string, now: number): boolean {
    this.origin ??= now;
    const at = now - this.origin;
    this.evict(at);
    const previous = this.seen.get(id);
    if (previous !== undefined && Math.abs(at - previous.at) < this.windowMs) return false;
    const claim = { id, at };
    this.seen.set(id, claim);
    this.claims.push(claim);
    return true;
  }

  private evict(at: number): void {
    // Oldest first, so stop at the first fresh id.
    for (let claim = this.claims.peek(); claim !== undefined; claim = this.claims.peek()) {
      if (this.seen.get(claim.id) === claim) {
        if (this.seen.size <= this.maxEntries && at - claim.at < this.windowMs) break;
        this.seen.delete(claim.id);
      }
      this.claims.shift();
    }
  }
}
