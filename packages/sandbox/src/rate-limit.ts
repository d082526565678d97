/** The call-frequency limit: at most `limit` calls per `windowMs` (sliding window, real time). */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 100, windowMs: 1000 };

/**
 * Sliding-window limiter over real (monotonic) time rather than the sandbox
 * clock: a test that freezes or jumps service time should not freeze the limit.
 * Holds at most `limit` timestamps.
 */
export class RateLimiter {
  private readonly hits: number[] = [];

  constructor(
    readonly options: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one call; returns undefined when allowed, else the milliseconds until a slot frees. */
  take(): number | undefined {
    const now = this.now();
    while (this.hits.length > 0 && now - (this.hits[0] ?? now) >= this.options.windowMs) this.hits.shift();
    if (this.hits.length >= this.options.limit) {
      return Math.max(1, this.options.windowMs - (now - (this.hits[0] ?? now)));
    }
    this.hits.push(now);
    return undefined;
  }
}
