import { consoleLogger, PaymentStoreUnavailableError, silentLogger, type Logger } from '@paymount/core';
import { checkDurabilityOnce } from './durability-check';
import type { PostgresDatabase } from './database';
import { migrate } from './migrate';
import type { TableLocation, TableNames } from './table-names';

/** SQLSTATE of a missing table. */
const UNDEFINED_TABLE = '42P01';
/** SQLSTATE of a prepared statement the connection does not have: a pooler in transaction mode ran it on another server connection. */
const UNDEFINED_PREPARED_STATEMENT = '26000';
/** How often, at most, a store deletes rows past their expiry, and how many at a time. */
export const PURGE_INTERVAL_MS = 60_000;
export const PURGE_BATCH = 1_000;

/** `clock_timestamp()` plus the milliseconds in parameter `$n`: every expiry is the database's clock, never an app's. */
export const leaseEnd = (n: number) => `clock_timestamp() + $${n}::float8 * interval '1 millisecond'`;

/**
 * A WHERE condition (always true) that commits the statement's own
 * transaction without waiting for the server to flush it to disk, for a
 * write whose loss in a server crash is safe: a lock or claim left behind
 * lapses with its lease, a settled attempt lost is settled again by
 * reconciliation. WAL is written in order, so the next ordinary commit of
 * any session flushes it too. One round trip, as the statement alone:
 * `set_config(..., true)` lasts until that commit.
 */
export const WITHOUT_FLUSH = "(SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL";

const migrations = new WeakMap<PostgresDatabase, Map<string, Promise<unknown>>>();

/** migrate() once per database and table location in this process; a failed one is tried again at the next call. */
function migrateOnce(db: PostgresDatabase, location: TableLocation, names: TableNames): Promise<unknown> {
  let byLocation = migrations.get(db);
  if (byLocation === undefined) migrations.set(db, (byLocation = new Map()));
  let done = byLocation.get(names.id);
  if (done === undefined) {
    done = migrate(db, location).catch((error: unknown) => {
      byLocation.delete(names.id);
      throw error;
    });
    byLocation.set(names.id, done);
  }
  return done;
}

export interface StoreLinkOptions {
  location: TableLocation;
  names: TableNames;
  /** Apply the shipped migrations before the first query (default), or leave the tables to the merchant's own tool. */
  migrate: boolean;
  logger?: Logger;
  /** When the next purge of each table is due: the app's clock (the rows' own expiry is the database's). Default `Date`. */
  clock?: { now(): number };
}

/**
 * One store's use of the database: its tables made before the first query,
 * every failure a PaymentStoreUnavailableError (the routes answer 503, and
 * nothing is charged or handled), and expired rows deleted now and then.
 */
export class StoreLink {
  readonly logger: Logger;
  /** table → when its next purge is due. Per table: a store writing to two (locks and attempts) purges each on its own schedule. */
  private readonly nextPurge = new Map<string, number>();

  constructor(
    readonly db: PostgresDatabase,
    private readonly name: string,
    private readonly options: StoreLinkOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  get names(): TableNames {
    return this.options.names;
  }

  async run<T>(operation: string, command: (db: PostgresDatabase) => Promise<T>): Promise<T> {
    try {
      if (this.options.migrate) await migrateOnce(this.db, this.options.location, this.names);
      // Unlike the rest, a database that can lose commits is told without a logger: on the console.
      void checkDurabilityOnce(this.db, this.options.logger ?? consoleLogger);
      return await command(this.db);
    } catch (error) {
      throw this.unavailable(operation, error);
    }
  }

  /** `error` of `operation` as the PaymentStoreUnavailableError the routes answer 503 for, saying how to fix what paymount recognises. */
  unavailable(operation: string, error: unknown): PaymentStoreUnavailableError {
    if (error instanceof PaymentStoreUnavailableError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    const fix =
      code === UNDEFINED_TABLE
        ? ` The store's tables are missing: call migrate(db${this.options.location.schema || this.options.location.tablePrefix ? ', { schema, tablePrefix }' : ''}) at start-up, or apply @paymount/postgres/migrations/*.sql with your migration tool (leaving \`migrate: false\`).`
        : code === UNDEFINED_PREPARED_STATEMENT
          ? ' A pooler in transaction mode (PgBouncer before 1.21, or with max_prepared_statements = 0) does not keep prepared statements: wrap the pool with fromPg(pool, { prepare: false }).'
          : '';
    return new PaymentStoreUnavailableError(`${this.name}: PostgreSQL ${operation} failed: ${reason}.${fix}`, { cause: error });
  }

  /** Deletes a batch of `table`'s expired rows, at most once per PURGE_INTERVAL_MS for that table; never throws (they are free already, only kept). */
  purgeNowAndThen(table: string, keyColumn: string): void {
    const now = (this.options.clock ?? Date).now();
    if (now < (this.nextPurge.get(table) ?? 0)) return;
    this.nextPurge.set(table, now + PURGE_INTERVAL_MS);
    // `expires_at` is tested on the row itself too, so one taken anew since the sub-select is kept.
    const sql = `DELETE FROM ${table} WHERE expires_at <= clock_timestamp() AND ${WITHOUT_FLUSH} AND ${keyColumn} IN (SELECT ${keyColumn} FROM ${table} WHERE expires_at <= clock_timestamp() LIMIT ${PURGE_BATCH})`;
    this.db.query(sql).catch((error: unknown) => this.logger.debug({ err: error, table }, `${this.name}: expired rows could not be deleted yet`));
  }
}
