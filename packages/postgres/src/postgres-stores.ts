import type { Logger } from '@paymount/core';
import { isLogger, validate } from '@paymount/core/schemas';
import { z } from 'zod';
import type { PostgresDatabase } from './database';
import { PostgresIdempotencyStore } from './postgres-idempotency-store';
import { PostgresOrderAttemptStore } from './postgres-order-attempt-store';
import { StoreLink } from './store-link';
import { tableLocationSchema, tableNamesOf } from './table-names';

const databaseSchema = z.custom<PostgresDatabase>(
  (value) =>
    typeof value === 'object' && value !== null && ['query', 'transaction'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function'),
  'must be a database with query() and transaction(): wrap your driver with fromPg(pool), fromNeon(pool), fromPostgresJs(sql) or fromPGlite(db)',
);

const storesOptionsSchema = tableLocationSchema.extend({
  migrate: z.boolean('must be true or false').optional(),
  logger: z.custom<Logger>(isLogger, 'must be a pino-compatible logger with debug, info, warn and error methods').optional(),
});

export interface PostgresStoresOptions {
  /** The schema holding the tables (created if missing). Default: the search_path's first (usually `public`). */
  schema?: string;
  /** The start of every table name. Default `paymount_`. */
  tablePrefix?: string;
  /**
   * Apply the shipped migrations (the same as `migrate(db, { schema, tablePrefix })`)
   * before the stores' first query. Default true; false when your own
   * migration tool applies `@paymount/postgres/migrations/*.sql`.
   */
  migrate?: boolean;
  /**
   * Told about expired rows that could not be deleted yet (debug) and, once,
   * about a server that can lose acknowledged commits (`fsync` or
   * `synchronous_commit` off; warn). Default: nothing, except that last, on the console.
   */
  logger?: Logger;
}

export interface PostgresStores {
  /** The webhook dedupe store: the `store` option. Handlers get its transaction as `ctx.db`. */
  idempotency: PostgresIdempotencyStore;
  /** The per-order payment guard's store: the `orders.store` option. */
  orders: PostgresOrderAttemptStore;
  /** The database both stores use. */
  db: PostgresDatabase;
}

/**
 * Both stores a paymount app needs, in the merchant's PostgreSQL (or PGlite).
 * `db` stays the merchant's to close.
 */
export function createPostgresStores(db: PostgresDatabase, options: PostgresStoresOptions = {}): PostgresStores {
  validate(databaseSchema, db, 'createPostgresStores db');
  const { migrate = true, logger, ...location } = validate(storesOptionsSchema, options, 'Postgres stores options');
  const names = tableNamesOf(location);
  const link = (name: string) => new StoreLink(db, name, { location, names, migrate, ...(logger ? { logger } : {}) });
  return {
    idempotency: new PostgresIdempotencyStore(link('Postgres idempotency store')),
    orders: new PostgresOrderAttemptStore(link('Postgres order attempt store')),
    db,
  };
}
