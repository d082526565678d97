import type { IdempotencyKeyState } from '@paymount/core';
import type { ExpiringEntries } from './expiring-entries';
import type { SqlStorage } from './workers-types';

/** One write a handler asked for in the event's object, applied with the event's handled mark. */
export type ObjectWrite = { op: 'put'; name: string; value: unknown } | { op: 'delete'; name: string };

/** How a commit of the handled mark ended: the claim was ours (or this very commit already ran) or someone else's. */
export type CommitOutcome = 'committed' | 'already-committed' | 'claim-lost';

interface Holder {
  state: IdempotencyKeyState;
  /** The claim's token, kept once done so that a retried commit is told it already ran. */
  token: string;
}

const EVENT = 'event';

const holderOf = (value: string) => JSON.parse(value) as Holder;

/**
 * One event's claim and handled mark, in the event's own object, with the
 * claiming store's token: release, renew and the mark touch the key only while
 * that token holds it. Each function is one atomic step in the object.
 */
export const eventState = {
  claim(entries: ExpiringEntries, now: number, token: string, ttlMs: number): boolean {
    if (entries.read(EVENT, now) !== undefined) return false;
    entries.write(EVENT, JSON.stringify({ state: 'processing', token } satisfies Holder), now + ttlMs);
    return true;
  },

  release(entries: ExpiringEntries, now: number, token: string): void {
    const row = entries.read(EVENT, now);
    if (row !== undefined && holderOf(row.value).state === 'processing' && holderOf(row.value).token === token) entries.delete(EVENT);
  },

  /** Done for `ttlMs`, unless another store's live claim holds the key. */
  complete(entries: ExpiringEntries, now: number, token: string | undefined, ttlMs: number): void {
    const row = entries.read(EVENT, now);
    if (row !== undefined && holderOf(row.value).state === 'processing' && holderOf(row.value).token !== token) return;
    entries.write(EVENT, JSON.stringify({ state: 'done', token: token ?? '' } satisfies Holder), now + ttlMs);
  },

  renew(entries: ExpiringEntries, now: number, token: string, ttlMs: number): boolean {
    const row = entries.read(EVENT, now);
    if (row === undefined) return false;
    const holder = holderOf(row.value);
    if (holder.state !== 'processing' || holder.token !== token) return false;
    entries.write(EVENT, row.value, now + ttlMs);
    return true;
  },

  state(entries: ExpiringEntries, now: number): IdempotencyKeyState | undefined {
    const row = entries.read(EVENT, now);
    return row === undefined ? undefined : holderOf(row.value).state;
  },

  /**
   * Marks the event done for `ttlMs` and applies `writes`, only while `token`
   * still holds the claim (a lapsed claim nobody took over is still ours).
   * Call inside the object's transactionSync: the writes and the mark commit
   * together or not at all.
   */
  commit(entries: ExpiringEntries, effects: ObjectEffects, now: number, token: string, ttlMs: number, writes: readonly ObjectWrite[]): CommitOutcome {
    const row = entries.readAny(EVENT);
    const holder = row === undefined ? undefined : holderOf(row.value);
    if (holder?.token !== token) return 'claim-lost';
    if (holder.state === 'done') return 'already-committed';
    for (const write of writes) effects.apply(write);
    entries.write(EVENT, JSON.stringify({ state: 'done', token } satisfies Holder), now + ttlMs);
    return 'committed';
  },
};

/**
 * What handlers wrote into an event's object: the merchant's data, kept after
 * the event's mark expires (deleted only by the merchant's own writes).
 */
export class ObjectEffects {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS paymount_effects (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
  }

  apply(write: ObjectWrite): void {
    if (write.op === 'delete') {
      this.sql.exec('DELETE FROM paymount_effects WHERE name = ?', write.name);
      return;
    }
    this.sql.exec(
      'INSERT INTO paymount_effects (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      write.name,
      JSON.stringify(write.value),
    );
  }

  all(): Record<string, unknown> {
    const rows = this.sql.exec<{ name: string; value: string }>('SELECT name, value FROM paymount_effects ORDER BY name').toArray();
    return Object.fromEntries(rows.map((row) => [row.name, JSON.parse(row.value) as unknown]));
  }

  isEmpty(): boolean {
    return this.sql.exec('SELECT 1 FROM paymount_effects LIMIT 1').toArray().length === 0;
  }
}
