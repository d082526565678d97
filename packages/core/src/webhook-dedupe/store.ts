// The dedupe store interface, its checked calls, the in-memory store, ClaimLostError (a runHandled whose claim is gone)
// and inEventCommit (a handler that writes in runHandled's commit).
import { BoundedExpiringMap } from '../shared/bounded-expiring-map';
import { PaymentStoreUnavailableError, PaymentValidationError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { PaymentEventContext } from '../webhooks/event-handlers';

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

/**
 * What a store's runHandled rejects with when its claim on the key is gone:
 * taken over by another delivery while the handlers ran (they took longer
 * than `webhook.processingTtlMs` without a renewal), or never held by this
 * store. Nothing of the run is committed, so the event takes effect once, by
 * the delivery that holds the claim or by a retry.
 */
export class ClaimLostError extends Error {
  override name = 'ClaimLostError';

  /** runHandled called for a key this store does not hold a claim on. */
  static notHeld(key: string): ClaimLostError {
    return new ClaimLostError(`runHandled(${key}): this store holds no claim on the key`);
  }

  /** The claim on `key` was taken over while its handlers ran; `undone` says what became of their writes. */
  static takenOver(key: string, undone: string): ClaimLostError {
    return new ClaimLostError(
      `the claim on event ${key} was taken over by another delivery while its handlers ran (longer than webhook.processingTtlMs without a renewal); ` +
        `this run's writes are ${undone}, so the event takes effect once`,
    );
  }
}

/** What inEventCommit needs to know of a store's commit: how to recognise it, and what to tell a merchant who set another store. */
export interface EventCommitKind<TDb> {
  /** True for the `db` this store's runHandled hands its handlers. */
  is: (db: unknown) => db is TDb;
  /** The commit in words, for the error: `transaction`, `Deno KV atomic commit`. */
  commit: string;
  /** The `store` option that gives it, for the error's fix: `createPostgresStores(db).idempotency`. */
  store: string;
}

/**
 * Makes a store's handler wrapper (`inTransaction`, `inKvCommit`): a handler
 * it wraps writes through `ctx.db`, the commit in which the store marks its
 * event handled (runHandled), so its writes and that mark commit together or
 * not at all. Run with another store, the wrapped handler throws a
 * PaymentValidationError naming the `store` option rather than write outside
 * that commit.
 */
export function inEventCommit<TDb>(kind: EventCommitKind<TDb>) {
  return <TEvent, TContext>(
    handler: (event: TEvent, ctx: PaymentEventContext<TContext> & { db: TDb }) => unknown,
  ): ((event: TEvent, ctx: PaymentEventContext<TContext>) => Promise<unknown>) =>
    async (event, ctx) => {
      const { db } = ctx;
      if (!kind.is(db)) {
        throw new PaymentValidationError('event handler context', [
          {
            path: 'store',
            rule: 'gives the commit this handler writes in',
            message: `gives no ${kind.commit} that marks the event handled, in which this handler writes: set \`store\` to ${kind.store}`,
          },
        ]);
      }
      return handler(event, { ...ctx, db });
    };
}

// The store's own words name what broke (refused, timed out); routes answer a fixed message instead.
const unavailable = (error: unknown) => PaymentStoreUnavailableError.from(error, 'idempotency store');

/**
 * Claims `key`; true when this caller now holds it. A store failure is a
 * PaymentStoreUnavailableError: nothing may be processed without the claim.
 */
export async function claimKey(store: IdempotencyStore, key: string, ttlMs: number): Promise<boolean> {
  try {
    return await store.claim(key, ttlMs);
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * Frees a claimed key, best effort. Never throws: the answer to the sender is
 * already decided by then. A key that could not be freed stays claimed until
 * its claim TTL ends, so it is logged as an error.
 */
export async function releaseKey(store: IdempotencyStore, key: string, logger: Logger): Promise<void> {
  await store.release(key).catch((error: unknown) => {
    logger.error({ key, err: error }, 'idempotency store: a claim could not be released; it lasts until its TTL ends');
  });
}

/** Marks a claimed key done, best effort: the work is done, so a failure here only shortens how long the key is remembered. */
export async function completeKey(store: IdempotencyStore, key: string, ttlMs: number, logger: Logger): Promise<void> {
  await store.complete(key, ttlMs).catch((error: unknown) => {
    logger.warn({ key, err: error }, 'idempotency store: a handled key could not be marked done; its claim TTL applies');
  });
}

/** What holds a key this delivery could not claim. */
export async function holderStateOf(store: IdempotencyStore, key: string): Promise<IdempotencyKeyState | undefined> {
  try {
    return await store.state(key);
  } catch (error) {
    throw unavailable(error);
  }
}

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
