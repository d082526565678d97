import { PaymentStoreUnavailableError } from '@paymount/core';
import { CONFLICT, expireInUntil, inStore, untilCommitted } from './committed';
import type { KvAtomic, KvKey, KvLike } from './kv';
import type { StoreSettings } from './store-settings';

/** Every entry the stores keep lapses at `until` (ms on the stores' clock). */
export interface Lapsing {
  until: number;
}

/** What a write decides from the entry it read: its answer, and the entry to commit in its place (null: delete it; absent: write nothing). */
export interface Decision<E, T> {
  answer: T;
  next?: E | null;
}

/** The zod schema of an entry, as far as reading one back needs it. */
interface EntrySchema<E> {
  safeParse(value: unknown): { success: true; data: E } | { success: false };
}

/** One kind of entry (an event, a lock, an attempt): read back checked against its schema, changed by checked commits. */
export class CheckedEntries<E extends Lapsing> {
  constructor(
    private readonly kv: KvLike,
    private readonly settings: StoreSettings,
    /** The store's name in its errors. */
    readonly store: string,
    private readonly schema: EntrySchema<E>,
  ) {}

  now(): number {
    return this.settings.clock.now();
  }

  /** `key` under the stores' prefix. */
  keyOf(...parts: KvKey): KvKey {
    return [...this.settings.keyPrefix, ...parts];
  }

  /** The entry at `key` and its versionstamp, lapsed or not; undefined and null when there is none. */
  async read(key: KvKey): Promise<{ entry: E | undefined; versionstamp: string | null }> {
    const found = await inStore(this.store, () => this.kv.get(key));
    if (found.versionstamp === null) return { entry: undefined, versionstamp: null };
    const parsed = this.schema.safeParse(found.value);
    // Refusing is safe (nothing is charged or run); trusting an unreadable entry might not be.
    if (!parsed.success) throw new PaymentStoreUnavailableError(`The ${this.store} found an unreadable entry at ${JSON.stringify(key)}; delete it once checked.`);
    return { entry: parsed.data, versionstamp: found.versionstamp };
  }

  /** The entry at `key` while it has not lapsed. */
  async live(key: KvKey): Promise<E | undefined> {
    const { entry } = await this.read(key);
    return entry !== undefined && entry.until > this.now() ? entry : undefined;
  }

  /**
   * Reads `key`'s entry, lets `decide` answer from it, and commits its change
   * checked against that read, with whatever `alongside` adds to the same
   * commit (an index kept with the entry); again until no other writer got in between.
   */
  write<T>(
    key: KvKey,
    decide: (entry: E | undefined, now: number) => Decision<E, T>,
    alongside?: (atomic: KvAtomic, previous: E | undefined, next: E | null, now: number) => void,
  ): Promise<T> {
    return untilCommitted(this.store, async () => {
      const { entry, versionstamp } = await this.read(key);
      const now = this.now();
      const { answer, next } = decide(entry, now);
      if (next === undefined) return answer;
      const atomic = this.kv.atomic().check({ key, versionstamp });
      if (next === null) atomic.delete(key);
      else atomic.set(key, next, { expireIn: expireInUntil(next.until, now) });
      alongside?.(atomic, entry, next, now);
      return (await inStore(this.store, () => atomic.commit())).ok ? answer : CONFLICT;
    });
  }

  /** A fresh atomic operation on the stores' KV. */
  atomic(): KvAtomic {
    return this.kv.atomic();
  }

  /** The entries under `prefix`, in key order. */
  list<T>(prefix: KvKey): AsyncIterable<{ key: KvKey; value: T; versionstamp: string }> {
    return this.kv.list<T>({ prefix });
  }
}
