/**
 * Where webhook events are remembered so each runs its handlers once: one key
 * per event (dedupeKeyOf), written only by the delivery that claims it; a
 * claim that fails must write nothing, so duplicates and replays leave the
 * store as it was. A shared implementation (e.g. Redis SET NX PX) lets several
 * app instances deduplicate together; the in-memory default covers a single
 * process.
 */
export interface IdempotencyStore {
  /**
   * Atomically takes `key` for `ttlMs`. Resolves true when the key was free (or
   * its previous claim expired), false when someone holds or completed it.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Frees a claimed key, so that a retry of the same event is processed. */
  release(key: string): Promise<void>;
  /** Marks a claimed key done and keeps it for `ttlMs`. */
  complete(key: string, ttlMs: number): Promise<void>;
  /**
   * Extends this store's claim on `key` to `ttlMs` from now, atomically and
   * only while that claim still holds the key: resolves false, changing
   * nothing, when the key is free, done, or claimed by someone else since
   * ours expired. Called every third of the claim TTL while a handler runs,
   * so only the claim of a process that died (or stopped answering) expires.
   *
   * Optional for stores written before it: without it a handler running
   * longer than `webhook.processingTtlMs` can be run again by a retry of its
   * event while it still runs (warned once when the routes are created).
   */
  renew?(key: string, ttlMs: number): Promise<boolean>;
  /**
   * What holds `key` now: 'processing' (claimed, not completed), 'done'
   * (completed) or undefined (free). It lets a delivery that loses its claim
   * to one still being handled be answered "retry later" instead of
   * "duplicate", so the event is not lost if that handler then fails.
   */
  state(key: string): Promise<IdempotencyKeyState | undefined>;
  /**
   * Optional, for a store in a transactional database: runs `handle` in a
   * transaction that then marks `key` done for `ttlMs`, only while this
   * store's claim still holds it, and commits; when `handle` throws, the claim
   * was taken over meanwhile, or the commit fails, everything rolls back and
   * this rejects. `handle` gets the transaction, which the merchant's handlers
   * receive as `ctx.db`: their writes and the mark commit together, so an
   * event takes effect exactly once across crashes. Used instead of
   * complete() for a key this store claimed; without it, the handlers run
   * outside any transaction and complete() follows them.
   */
  runHandled?<T>(key: string, ttlMs: number, handle: (transaction: unknown) => Promise<T>): Promise<T>;
}

export type IdempotencyKeyState = 'processing' | 'done';
