/**
 * Where webhook deliveries are remembered so each event runs its handlers once.
 * A shared implementation (e.g. Redis SET NX PX) lets several app instances
 * deduplicate together; the in-memory default covers a single process.
 */
export interface IdempotencyStore {
  /**
   * Atomically takes `key` for `ttlMs`. Resolves true when the key was free (or
   * its previous claim expired), false when someone holds or completed it.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Frees a claimed key, so that a retry of the same delivery is processed. */
  release(key: string): Promise<void>;
  /**
   * Marks a claimed key done and keeps it for `ttlMs`. Optional: without it the
   * claim's own TTL is how long a completed key is remembered.
   */
  complete?(key: string, ttlMs: number): Promise<void>;
}
