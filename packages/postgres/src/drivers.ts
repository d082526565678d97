import { validate } from '@paymount/core/schemas';
import { z } from 'zod';
import type { PostgresDatabase, PostgresQueryable, Row } from './database';
import { statementNames } from './statement-names';
import { claimPGliteFolder } from './pglite-folder-lock';

// The drivers' shapes, as far as the wrappers use them: structural, so this package depends on no driver.
// Methods, not function-typed properties, so each driver's own (narrower) parameter types fit.

/** A statement as node-postgres takes it; with a `name`, it is parsed and planned once per connection. */
export interface PgQueryConfig {
  name?: string;
  text: string;
  values: unknown[];
}
/** node-postgres: a `pg.Client`, or a client a `pg.Pool` lent. */
export interface PgClientLike {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
}
/** node-postgres: a connection a `pg.Pool` lent; pg's reports its loss as an 'error' event. */
export interface PgPoolClientLike extends PgClientLike {
  release(destroy?: boolean | Error): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
}
/** node-postgres: a `pg.Pool`. */
export interface PgPoolLike extends PgClientLike {
  connect(): Promise<PgPoolClientLike>;
  readonly totalCount: number;
}
/** postgres.js: the `sql` function `postgres(url)` returns, or a transaction's. */
export interface PostgresJsLike {
  unsafe(query: string, parameters?: unknown[], options?: { prepare?: boolean }): PromiseLike<unknown>;
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
  /** Where it keeps its data (PGlite's own `dataDir`): a folder is claimed for this process. */
  readonly dataDir?: string;
}

export interface FromPgOptions {
  /**
   * Send each statement that has parameters as a prepared statement named
   * after its text, so each connection parses and plans it once, not at
   * every use (what postgres.js does by default). Default true. False behind
   * a pooler in transaction mode that does not carry prepared statements
   * (PgBouncer before 1.21, or with `max_prepared_statements = 0`): it would
   * answer `prepared statement "paymount_..." does not exist`.
   */
  prepare?: boolean;
}

const fromPgOptionsSchema = z.strictObject({ prepare: z.boolean('must be true or false').optional() }) satisfies z.ZodType<FromPgOptions, FromPgOptions>;

const queryOf =
  (send: (text: string, params: unknown[]) => PromiseLike<{ rows: unknown[] } | unknown>, rowsOf: (answer: never) => unknown[]) =>
  async <R extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<{ rows: R[] }> => ({
    rows: rowsOf((await send(text, [...params])) as never) as R[],
  });

const pgRows = (answer: { rows: unknown[] }) => answer.rows;

/** The query function sending through one node-postgres connection (or a Pool). */
type PgQueryOf = (client: PgClientLike) => PostgresQueryable['query'];

/** BEGIN, `fn`, COMMIT on one node-postgres connection; ROLLBACK when `fn` (or COMMIT) throws. */
async function pgTransaction<T>(client: PgClientLike, queryOn: PgQueryOf, fn: (tx: PostgresQueryable) => Promise<T>): Promise<T> {
  const command = (text: string) => client.query({ text, values: [] });
  await command('BEGIN');
  try {
    const result = await fn({ query: queryOn(client) });
    await command('COMMIT');
    return result;
  } catch (error) {
    // A ROLLBACK that cannot be sent means the connection is gone, and the server has rolled back already.
    await command('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * node-postgres. A `Pool` lends each transaction a connection of its own; a
 * single `Client` runs one thing at a time (a transaction holds it to the
 * end, queries meanwhile wait), so give several app requests a Pool.
 */
export function fromPg(db: PgPoolLike | PgClientLike, options: FromPgOptions = {}): PostgresDatabase {
  const { prepare = true } = validate(fromPgOptionsSchema, options, 'fromPg options');
  const nameOf = prepare ? statementNames() : () => undefined;
  const queryOn: PgQueryOf = (client) =>
    queryOf(async (text, values) => {
      const name = await nameOf(text, values);
      return client.query(name === undefined ? { text, values } : { name, text, values });
    }, pgRows);
  const query = queryOn(db);
  if ('connect' in db && typeof (db as PgPoolLike).totalCount === 'number') {
    const pool = db as PgPoolLike;
    return {
      query,
      async transaction(fn) {
        const client = await pool.connect();
        let broken: Error | undefined;
        // A connection lost while lent out (a database restart) is told here, not to the pool's listener:
        // unheard, node-postgres's 'error' event would end the process. The transaction's next statement fails with it.
        const lost = (error: Error) => void (broken ??= error);
        client.on?.('error', lost);
        try {
          return await pgTransaction(client, queryOn, fn);
        } catch (error) {
          // Not given back for reuse when its state is unknown (a failed COMMIT, a dropped connection).
          broken ??= error instanceof Error ? error : new Error(String(error));
          throw error;
        } finally {
          client.off?.('error', lost);
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
    transaction: (fn) => exclusive(() => pgTransaction(db, queryOn, fn)),
  };
}

const neonPoolSchema = z.custom<PgPoolLike>(
  (value) => typeof value === 'object' && value !== null && typeof (value as PgPoolLike).connect === 'function' && typeof (value as PgPoolLike).totalCount === 'number',
  'must be a Pool from @neondatabase/serverless: neon() over HTTP sends each query alone, and cannot hold the transaction in which a handler writes and its event is marked handled',
);

/**
 * Neon's serverless driver (`new Pool({ connectionString })` from
 * `@neondatabase/serverless`): node-postgres over a WebSocket, with
 * transactions on a connection of their own, so `inTransaction` handlers
 * commit with their event's mark on the edge too. On Workers, make the Pool
 * in the request (a WebSocket cannot outlive it) and end it in `ctx.waitUntil`.
 */
export function fromNeon(pool: PgPoolLike, options: FromPgOptions = {}): PostgresDatabase {
  return fromPg(validate(neonPoolSchema, pool, 'fromNeon pool'), options);
}

/**
 * postgres.js prepares what it is told to, once per connection (unless the
 * connection was made with `prepare: false`); `unsafe` alone would not, and
 * would then ask the server for a statement's parameter types before each run:
 * two round trips instead of one.
 */
const postgresJsQuery = (sql: PostgresJsLike, nameOf: ReturnType<typeof statementNames>) =>
  queryOf((text, params) => sql.unsafe(text, params, { prepare: nameOf(text, params) !== undefined }), (rows: unknown[]) => [...rows]);

/** postgres.js (`postgres(url)`); a transaction is `sql.begin`, on a connection of its own. */
export function fromPostgresJs(sql: PostgresJsSqlLike): PostgresDatabase {
  const nameOf = statementNames();
  return {
    query: postgresJsQuery(sql, nameOf),
    transaction: async (fn) => (await sql.begin((tx) => fn({ query: postgresJsQuery(tx, nameOf) }))) as never,
  };
}

const pgliteQuery = (db: PGliteLike) => queryOf((text, params) => db.query(text, params), pgRows);

/**
 * PGlite (`new PGlite(dataDir)`): Postgres in the process, one connection,
 * transactions one at a time. A data folder is claimed for this process (see
 * `lockPGliteFolder`): while another running process holds it, this throws
 * naming that process.
 */
export function fromPGlite(db: PGliteDatabaseLike): PostgresDatabase {
  claimPGliteFolder(db.dataDir);
  return {
    query: pgliteQuery(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: pgliteQuery(tx) })),
  };
}
