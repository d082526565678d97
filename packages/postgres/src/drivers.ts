import type { PostgresDatabase, PostgresQueryable, Row } from './database';

// The drivers' shapes, as far as the wrappers use them: structural, so this package depends on no driver.
// Methods, not function-typed properties, so each driver's own (narrower) parameter types fit.

/** node-postgres: a `pg.Client`, or a client a `pg.Pool` lent. */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
/** node-postgres: a `pg.Pool`. */
export interface PgPoolLike extends PgClientLike {
  connect(): Promise<PgClientLike & { release(destroy?: boolean | Error): void }>;
  readonly totalCount: number;
}
/** postgres.js: the `sql` function `postgres(url)` returns, or a transaction's. */
export interface PostgresJsLike {
  unsafe(query: string, parameters?: unknown[]): PromiseLike<unknown>;
}
/** postgres.js: the top-level `sql`, which can begin a transaction. */
export interface PostgresJsSqlLike extends PostgresJsLike {
  begin<T>(fn: (sql: PostgresJsLike) => T | Promise<T>): Promise<unknown>;
}
/** PGlite (`@electric-sql/pglite`), or one of its transactions. */
export interface PGliteLike {
  query(query: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}
export interface PGliteDatabaseLike extends PGliteLike {
  transaction<T>(callback: (tx: PGliteLike) => Promise<T>): Promise<T>;
}

const queryOf =
  (send: (text: string, params: unknown[]) => PromiseLike<{ rows: unknown[] } | unknown>, rowsOf: (answer: never) => unknown[]) =>
  async <R extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<{ rows: R[] }> => ({
    rows: rowsOf((await send(text, [...params])) as never) as R[],
  });

const pgRows = (answer: { rows: unknown[] }) => answer.rows;

/** BEGIN, `fn`, COMMIT on one node-postgres connection; ROLLBACK when `fn` (or COMMIT) throws. */
async function pgTransaction<T>(client: PgClientLike, fn: (tx: PostgresQueryable) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn({ query: queryOf((text, params) => client.query(text, params), pgRows) });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A ROLLBACK that cannot be sent means the connection is gone, and the server has rolled back already.
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * node-postgres. A `Pool` lends each transaction a connection of its own; a
 * single `Client` runs one thing at a time (a transaction holds it to the
 * end, queries meanwhile wait), so give several app requests a Pool.
 */
export function fromPg(db: PgPoolLike | PgClientLike): PostgresDatabase {
  const query = queryOf((text, params) => db.query(text, params), pgRows);
  if ('connect' in db && typeof (db as PgPoolLike).totalCount === 'number') {
    const pool = db as PgPoolLike;
    return {
      query,
      async transaction(fn) {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          return await pgTransaction(client, fn);
        } catch (error) {
          // Not given back for reuse when its state is unknown (a failed COMMIT, a dropped connection).
          broken = error instanceof Error ? error : new Error(String(error));
          throw error;
        } finally {
          client.release(broken);
        }
      },
    };
  }
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = turn.then(work, work);
    turn = result.catch(() => {});
    return result;
  };
  return {
    query: (text, params) => exclusive(() => query(text, params)),
    transaction: (fn) => exclusive(() => pgTransaction(db, fn)),
  };
}

const postgresJsQuery = (sql: PostgresJsLike) => queryOf((text, params) => sql.unsafe(text, params), (rows: unknown[]) => [...rows]);

/** postgres.js (`postgres(url)`); a transaction is `sql.begin`, on a connection of its own. */
export function fromPostgresJs(sql: PostgresJsSqlLike): PostgresDatabase {
  return {
    query: postgresJsQuery(sql),
    transaction: async (fn) => (await sql.begin((tx) => fn({ query: postgresJsQuery(tx) }))) as never,
  };
}

const pgliteQuery = (db: PGliteLike) => queryOf((text, params) => db.query(text, params), pgRows);

/** PGlite (`new PGlite(dataDir)`): Postgres in the process, one connection, transactions one at a time. */
export function fromPGlite(db: PGliteDatabaseLike): PostgresDatabase {
  return {
    query: pgliteQuery(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: pgliteQuery(tx) })),
  };
}
