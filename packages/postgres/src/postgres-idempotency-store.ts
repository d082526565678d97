import { ClaimLostError, type IdempotencyKeyState, type IdempotencyStore } from '@paymount/core';
import type { PostgresQueryable } from './database';
import { lazyTransaction } from './lazy-transaction';
import { leaseEnd, WITHOUT_FLUSH, type StoreLink } from './store-link';

/**
 * An IdempotencyStore in PostgreSQL, shared by every app instance on the
 * database: one row per event, `<prefix>webhook_events`.
 *
 * `claim` inserts the row, or takes it over once its lease has lapsed (a
 * dead instance's), with a random token that marks the claim as this
 * process's: `release`, `renew` and `complete` touch the row only while it
 * holds that token, so a late call never frees, extends or overwrites a claim
 * another instance took. Leases are the database's clock.
 *
 * `runHandled` is what makes handler effects exactly-once: the handlers run
 * in a transaction that ends by marking the event done, only while our claim
 * still holds it. Their writes and the mark commit together, or neither does.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  /** key → token of the claims this process holds. */
  private readonly held = new Map<string, string>();

  constructor(private readonly link: StoreLink) {}

  private get table(): string {
    return this.link.names.webhookEvents;
  }

  /**
   * Not flushed before it answers: the handlers' transaction that follows
   * (runHandled) is, and WAL is flushed in order, so a claim is on disk by
   * the time its event is answered as handled. A claim a server crash loses
   * before that only lets a redelivery claim the event too: the mark is
   * conditional on this claim's token, so the run that lost it rolls back
   * (ClaimLostError) and one run's effects commit.
   */
  async claim(key: string, ttlMs: number): Promise<boolean> {
    const token = crypto.randomUUID();
    const { rows } = await this.link.run('claim', (db) =>
      db.query(
        `INSERT INTO ${this.table} AS e (key, state, token, expires_at) SELECT $1::text, 'processing', $2::text, ${leaseEnd(3)} WHERE ${WITHOUT_FLUSH}
         ON CONFLICT (key) DO UPDATE SET state = 'processing', token = excluded.token, expires_at = excluded.expires_at
         WHERE e.expires_at <= clock_timestamp()
         RETURNING key`,
        [key, token, ttlMs],
      ),
    );
    this.link.purgeNowAndThen(this.table, 'key');
    if (rows.length === 0) return false;
    this.held.set(key, token);
    return true;
  }

  /** Not flushed before it answers: a claim a server crash brings back lapses with its lease, and the event is handled at the next arrival. */
  async release(key: string): Promise<void> {
    const token = this.letGo(key);
    if (token === undefined) return;
    await this.link.run('release', (db) =>
      db.query(`DELETE FROM ${this.table} WHERE key = $1 AND token = $2 AND state = 'processing' AND ${WITHOUT_FLUSH}`, [key, token]),
    );
  }

  /** Marks the key done for `ttlMs` while it holds our claim, or when it lapsed meanwhile (the work is done: remembering it is right). */
  async complete(key: string, ttlMs: number): Promise<void> {
    const token = this.letGo(key) ?? '';
    await this.link.run('complete', (db) =>
      db.query(
        `INSERT INTO ${this.table} AS e (key, state, token, expires_at) VALUES ($1, 'done', $2, ${leaseEnd(3)})
         ON CONFLICT (key) DO UPDATE SET state = 'done', expires_at = excluded.expires_at
         WHERE e.token = excluded.token OR e.expires_at <= clock_timestamp()`,
        [key, token, ttlMs],
      ),
    );
  }

  /** The token of our claim on `key`, no longer held by this process once read. */
  private letGo(key: string): string | undefined {
    const token = this.held.get(key);
    this.held.delete(key);
    return token;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const token = this.held.get(key);
    if (token === undefined) return false;
    const { rows } = await this.link.run('renew', (db) =>
      db.query(
        `UPDATE ${this.table} SET expires_at = ${leaseEnd(3)}
         WHERE key = $1 AND token = $2 AND state = 'processing' AND expires_at > clock_timestamp()
         RETURNING key`,
        [key, token, ttlMs],
      ),
    );
    return rows.length > 0;
  }

  async state(key: string): Promise<IdempotencyKeyState | undefined> {
    const { rows } = await this.link.run('state', (db) =>
      db.query<{ state: IdempotencyKeyState }>(`SELECT state FROM ${this.table} WHERE key = $1 AND expires_at > clock_timestamp()`, [key]),
    );
    return rows[0]?.state;
  }

  /**
   * Runs `handle` in a transaction that, after it, marks `key` done for
   * `ttlMs`, only while this store's claim still holds the key (however long
   * `handle` took: a lapsed lease nobody took over is still ours). When
   * another delivery took the claim over meanwhile, or anything fails,
   * everything `handle` wrote is rolled back and this rejects: the event is
   * then handled once, by the other delivery or by a retry. The mark is the
   * transaction's last statement, so the row is locked only for the commit,
   * and a delivery of the same event arriving meanwhile is told it is in progress.
   *
   * The transaction begins at `handle`'s first query (lazyTransaction): when
   * it sends none, the mark is one flushed statement, and no connection is
   * held while `handle` runs.
   */
  async runHandled<T>(key: string, ttlMs: number, handle: (transaction: PostgresQueryable) => Promise<T>): Promise<T> {
    const token = this.held.get(key);
    if (token === undefined) throw ClaimLostError.notHeld(key);
    const transaction = lazyTransaction(this.link.db);
    let handled: T;
    try {
      handled = await handle(transaction.queryable);
    } catch (error) {
      // A handler's own failure is its own, not the store's.
      await transaction.abort();
      throw error;
    }
    await transaction.finish((tx) => markHandled(this.link, tx, { key, token, ttlMs }));
    this.held.delete(key);
    return handled;
  }
}

/** The mark of runHandled: `key` done for `ttlMs`, only while our claim (`token`) still holds it. */
async function markHandled(link: StoreLink, tx: PostgresQueryable, { key, token, ttlMs }: { key: string; token: string; ttlMs: number }): Promise<void> {
  const { rows } = await tx
    .query(
      `UPDATE ${link.names.webhookEvents} SET state = 'done', expires_at = ${leaseEnd(3)}
       WHERE key = $1 AND token = $2 AND state = 'processing'
       RETURNING key`,
      [key, token, ttlMs],
    )
    .catch((error: unknown) => {
      throw link.unavailable('mark handled', error);
    });
  if (rows.length === 0) {
    throw ClaimLostError.takenOver(key, 'rolled back');
  }
}
