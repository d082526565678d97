import type { OrderAttempt, OrderAttemptStore, OrderAttemptUpdate } from '@paymount/core';
import { isUnsettled, orderAttemptSchema, settledAttempt } from '@paymount/core/stores';
import * as z from 'zod/mini';
import { CheckedEntries } from './checked-entries';
import { expireInUntil } from './committed';
import type { KvAtomic, KvKey, KvLike } from './kv';
import type { StoreSettings } from './store-settings';

const lockEntrySchema = z.object({ token: z.string(), until: z.number() });
const attemptEntrySchema = z.object({ attempt: orderAttemptSchema, until: z.number() });

type LockEntry = z.infer<typeof lockEntrySchema>;
type AttemptEntry = { attempt: OrderAttempt; until: number };

const STORE = 'Deno KV order attempt store';

/**
 * An OrderAttemptStore shared by every isolate through Deno KV.
 *
 * - `[...keyPrefix, 'order-lock', order]`: the order's lock, a random token
 *   written only where no live lock is, and deleted only while it holds that
 *   token (a late unlock never frees a lock another isolate took after ours lapsed).
 * - `[...keyPrefix, 'order-attempt', order]`: the current attempt and when it lapses.
 * - `[...keyPrefix, 'order-unsettled', updatedAt, order]`: one entry per
 *   unsettled attempt, in the same commit as the attempt, so that unsettled()
 *   reads them oldest first from one ordered range.
 *
 * Every change is a read followed by an atomic commit checked against the
 * read's versionstamp, made again when another writer got in between: a lock
 * is taken by one request at a time, and settle() applies only to the attempt
 * it read. Expiry is a stored deadline checked on every read (KV's expireIn
 * is lazy and only lets it drop lapsed entries).
 */
export class DenoKvOrderAttemptStore implements OrderAttemptStore {
  private readonly locks: CheckedEntries<LockEntry>;
  private readonly attempts: CheckedEntries<AttemptEntry>;

  constructor(kv: KvLike, settings: StoreSettings) {
    this.locks = new CheckedEntries(kv, settings, STORE, lockEntrySchema);
    // The stored attempt is read back through core's schema, which types it as OrderAttempt.
    this.attempts = new CheckedEntries<AttemptEntry>(kv, settings, STORE, attemptEntrySchema as z.ZodMiniType<AttemptEntry>);
  }

  async lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    const token = crypto.randomUUID();
    return this.locks.write(this.lockKey(referenceOrderId), (entry, now) =>
      entry !== undefined && entry.until > now ? { answer: undefined } : { answer: token, next: { token, until: now + ttlMs } },
    );
  }

  async unlock(referenceOrderId: string, token: string): Promise<void> {
    await this.locks.write(this.lockKey(referenceOrderId), (entry) => (entry?.token === token ? { answer: undefined, next: null } : { answer: undefined }));
  }

  async get(referenceOrderId: string): Promise<OrderAttempt | undefined> {
    return (await this.attempts.live(this.attemptKey(referenceOrderId)))?.attempt;
  }

  async put(attempt: OrderAttempt, ttlMs: number): Promise<void> {
    await this.replace(attempt.referenceOrderId, (_, now) => ({ answer: undefined, next: { attempt, until: now + ttlMs } }));
  }

  async delete(referenceOrderId: string): Promise<void> {
    await this.replace(referenceOrderId, (entry) => ({ answer: undefined, ...(entry === undefined ? {} : { next: null }) }));
  }

  async settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean> {
    return this.replace(referenceOrderId, (entry, now) => {
      const current = entry !== undefined && entry.until > now ? entry.attempt : undefined;
      const settled = current?.transactionRequestId === transactionRequestId ? settledAttempt(current, update) : undefined;
      return settled === undefined ? { answer: false } : { answer: true, next: { attempt: settled, until: now + ttlMs } };
    });
  }

  async unsettled({ changedBefore, limit }: { changedBefore: number; limit: number }): Promise<OrderAttempt[]> {
    const found: OrderAttempt[] = [];
    if (limit <= 0) return found;
    for await (const { key } of this.attempts.list(this.attempts.keyOf('order-unsettled'))) {
      const [updatedAt, referenceOrderId] = key.slice(-2) as [number, string];
      if (updatedAt > changedBefore) break;
      const attempt = await this.get(referenceOrderId);
      // An entry outlives its attempt only until KV drops what lapsed: the attempt's deadline decides.
      if (attempt !== undefined && attempt.updatedAt === updatedAt && isUnsettled(attempt)) found.push(attempt);
      if (found.length === limit) break;
    }
    return found;
  }

  /** Writes the order's attempt as `decide` says, its unsettled entry moved with it in the same commit. */
  private replace<T>(
    referenceOrderId: string,
    decide: (entry: AttemptEntry | undefined, now: number) => { answer: T; next?: AttemptEntry | null },
  ): Promise<T> {
    return this.attempts.write(this.attemptKey(referenceOrderId), decide, (atomic, previous, next, now) =>
      this.reindex(atomic, referenceOrderId, previous, next, now),
    );
  }

  private reindex(atomic: KvAtomic, referenceOrderId: string, previous: AttemptEntry | undefined, next: AttemptEntry | null, now: number): void {
    const wasAt = previous !== undefined && isUnsettled(previous.attempt) ? previous.attempt.updatedAt : undefined;
    const isAt = next !== null && isUnsettled(next.attempt) ? next.attempt.updatedAt : undefined;
    // An entry that stays where it is is only set again: one commit writes a key once.
    if (wasAt !== undefined && wasAt !== isAt) atomic.delete(this.unsettledKey(wasAt, referenceOrderId));
    if (next !== null && isAt !== undefined) atomic.set(this.unsettledKey(isAt, referenceOrderId), referenceOrderId, { expireIn: expireInUntil(next.until, now) });
  }

  private lockKey(referenceOrderId: string): KvKey {
    return this.locks.keyOf('order-lock', referenceOrderId);
  }

  private attemptKey(referenceOrderId: string): KvKey {
    return this.attempts.keyOf('order-attempt', referenceOrderId);
  }

  private unsettledKey(updatedAt: number, referenceOrderId: string): KvKey {
    return this.attempts.keyOf('order-unsettled', updatedAt, referenceOrderId);
  }
}
