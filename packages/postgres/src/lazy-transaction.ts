import type { PostgresDatabase, PostgresQueryable } from './database';

/** A transaction on `db` that begins at its first query, and ends with `finish` or `abort`. */
export interface LazyTransaction {
  /** What the handlers write through: the first query begins the transaction (a connection is taken then, not before). */
  readonly queryable: PostgresQueryable;
  /**
   * Runs `last` as the final statement and commits: in the transaction when a
   * query began it, else alone on `db` (one autocommit statement: the same
   * outcome, without BEGIN and COMMIT). Rejects, rolled back, when `last` or the commit throws.
   */
  finish<T>(last: (db: PostgresQueryable) => Promise<T>): Promise<T>;
  /** Rolls back what was begun, if anything; never throws (the caller has its own error to report). */
  abort(): Promise<void>;
}

/**
 * The handlers of an event need a transaction only when they write. Most
 * send nothing through it (side effects elsewhere, or none): for them, the
 * event's mark is one statement, and no pooled connection is held while they
 * run. A handler that does query gets the same transaction as before, from
 * its first query to the mark's commit.
 */
export function lazyTransaction(db: PostgresDatabase): LazyTransaction {
  let begun: Promise<PostgresQueryable> | undefined;
  let ended: Promise<unknown> | undefined;
  let end!: (last: ((tx: PostgresQueryable) => Promise<unknown>) | Error) => void;
  const ending = new Promise<((tx: PostgresQueryable) => Promise<unknown>) | Error>((resolve) => (end = resolve));

  const begin = (): Promise<PostgresQueryable> =>
    (begun ??= new Promise<PostgresQueryable>((resolve, reject) => {
      ended = db.transaction(async (tx) => {
        resolve(tx);
        const last = await ending;
        if (last instanceof Error) throw last;
        return last(tx);
      });
      // A transaction that could not begin (no connection) fails the query that asked for it.
      ended.catch(reject);
    }));

  return {
    queryable: { query: async (text, params) => (await begin()).query(text, params) },
    async finish<T>(last: (db: PostgresQueryable) => Promise<T>): Promise<T> {
      if (begun === undefined) return last(db);
      end(last);
      return (await ended) as T;
    },
    async abort() {
      if (begun === undefined) return;
      end(new Error('rolled back'));
      await ended?.catch(() => {});
    },
  };
}
