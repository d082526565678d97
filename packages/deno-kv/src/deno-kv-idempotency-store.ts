import { ClaimLostError, type IdempotencyKeyState, type IdempotencyStore } from '@paymount/core';
import * as z from 'zod/mini';
import { CheckedEntries } from './checked-entries';
import { CONFLICT, expireInUntil, inStore, untilCommitted } from './committed';
import { type KvEventWrites, recordWrites } from './event-writes';
import type { KvKey, KvLike } from './kv';
import type { StoreSettings } from './store-settings';

const eventEntrySchema = z.object({
  state: z.enum(['processing', 'done']),
  token: z.string(),
  until: z.number(),
});

type EventEntry = z.infer<typeof eventEntrySchema>;

/**
 * An IdempotencyStore in Deno KV, shared by every isolate on the KV: one
 * entry per event, `[...keyPrefix, 'event', key]`, holding its state, the
 * token of the claim that wrote it and when it lapses.
 *
 * Every change is a read followed by an atomic commit checked against the
 * read's versionstamp, made again when another writer got in between. `claim`
 * writes a random token, so `release`, `renew` and `complete` touch the entry
 * only while it holds this store's claim: a late call never frees, extends or
 * overwrites a claim another isolate took. Leases are the isolates' clocks
 * (Deno Deploy keeps them synchronised); KV's expireIn only lets it drop
 * lapsed entries, never decides whether one is live.
 *
 * `runHandled` makes handler effects exactly-once: the handlers' writes
 * (`ctx.db`, see inKvCommit) and the event's mark commit in one atomic
 * operation, only while this store's claim still holds the event.
 */
export class DenoKvIdempotencyStore implements IdempotencyStore {
  /** key → token of the claims this store holds. */
  private readonly held = new Map<string, string>();
  private readonly events: CheckedEntries<EventEntry>;

  constructor(kv: KvLike, settings: StoreSettings) {
    this.events = new CheckedEntries(kv, settings, 'Deno KV idempotency store', eventEntrySchema);
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const token = crypto.randomUUID();
    const claimed = await this.events.write(this.keyOf(key), (entry, now) =>
      entry !== undefined && entry.until > now ? { answer: false } : { answer: true, next: { state: 'processing', token, until: now + ttlMs } },
    );
    if (claimed) this.held.set(key, token);
    return claimed;
  }

  async release(key: string): Promise<void> {
    const token = this.letGo(key);
    if (token === undefined) return;
    await this.events.write(this.keyOf(key), (entry) =>
      entry?.token === token && entry.state === 'processing' ? { answer: undefined, next: null } : { answer: undefined },
    );
  }

  /** Marks the key done for `ttlMs` while it holds our claim, or when it lapsed meanwhile (the work is done: remembering it is right). */
  async complete(key: string, ttlMs: number): Promise<void> {
    const token = this.letGo(key) ?? '';
    await this.events.write(this.keyOf(key), (entry, now) =>
      entry === undefined || entry.until <= now || entry.token === token
        ? { answer: undefined, next: { state: 'done', token, until: now + ttlMs } }
        : { answer: undefined },
    );
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const token = this.held.get(key);
    if (token === undefined) return false;
    return this.events.write(this.keyOf(key), (entry, now) =>
      entry?.token === token && entry.state === 'processing' && entry.until > now ? { answer: true, next: { ...entry, until: now + ttlMs } } : { answer: false },
    );
  }

  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    return (await this.events.live(this.keyOf(key)))?.state;
  }

  /**
   * Runs `handle`, then commits what it added to `writes` together with the
   * mark of `key` done for `ttlMs`, in one atomic operation checked against
   * this store's claim (however long `handle` took: a lapsed lease nobody took
   * over is still ours). When `handle` throws, another delivery took the claim
   * over, or one of the handlers' own checks fails, nothing is written and this
   * rejects: the event is then handled once, by the other delivery or by a retry.
   */
  async runHandled<T>(key: string, ttlMs: number, handle: (writes: KvEventWrites) => Promise<T>): Promise<T> {
    const token = this.held.get(key);
    if (token === undefined) throw ClaimLostError.notHeld(key);
    const recorded = recordWrites();
    const handled = await handle(recorded.writes);
    const entryKey = this.keyOf(key);
    await untilCommitted(this.events.store, async () => {
      const read = await this.events.read(entryKey);
      if (read.entry?.token !== token || read.entry.state !== 'processing') {
        throw ClaimLostError.takenOver(key, 'not committed');
      }
      const now = this.events.now();
      const mark: EventEntry = { state: 'done', token, until: now + ttlMs };
      const atomic = recorded
        .applyTo(this.events.atomic())
        .check({ key: entryKey, versionstamp: read.versionstamp })
        .set(entryKey, mark, { expireIn: expireInUntil(mark.until, now) });
      if ((await inStore(this.events.store, () => atomic.commit())).ok) return undefined;
      // Our entry unchanged since the read: the refusal was one of the handlers' checks, and a retry would be refused too.
      if ((await this.events.read(entryKey)).versionstamp === read.versionstamp) {
        throw new Error(
          `the atomic commit that marks event ${key} handled was refused by a check its handlers added (an entry they read changed before the commit): ` +
            'nothing of it was written; a retry of the event runs the handlers again',
        );
      }
      // A renewal that was on its way as the handlers ended landed after the read.
      return CONFLICT;
    });
    this.held.delete(key);
    return handled;
  }

  /** The token of our claim on `key`, no longer held by this store once read. */
  private letGo(key: string): string | undefined {
    const token = this.held.get(key);
    this.held.delete(key);
    return token;
  }

  private keyOf(key: string): KvKey {
    return this.events.keyOf('event', key);
  }
}
