import { z } from 'zod';

/** The prefix of every table name in the shipped SQL files; migrate() replaces it with `tablePrefix`. */
export const SHIPPED_TABLE_PREFIX = 'paymount_';
export const DEFAULT_TABLE_PREFIX = SHIPPED_TABLE_PREFIX;

/** The longest name the SQL files derive from the prefix (an index name), which PostgreSQL cuts at 63 bytes. */
const LONGEST_SUFFIX = 'order_attempts_expires_at';
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const IDENTIFIER_RULE = 'must be lowercase letters, digits and _, not starting with a digit';

/**
 * Where the stores' tables are: the same options for migrate() and createPostgresStores(). Written
 * out rather than inferred so that the published declarations import no zod (a CommonJS app without
 * esModuleInterop cannot compile zod's typings); the schema below `satisfies` it, so the two cannot drift.
 */
export interface TableLocation {
  /** The schema holding the tables, created if missing. Default: the first schema of the search_path (usually `public`). */
  schema?: string | undefined;
  /** The start of every table name. Default `paymount_`. */
  tablePrefix?: string | undefined;
}

export const tableLocationSchema = z.strictObject({
  schema: z.string('must be a schema name').max(63, 'must be at most 63 characters').regex(IDENTIFIER, IDENTIFIER_RULE).optional(),
  tablePrefix: z
    .string('must be a table name prefix')
    .max(63 - LONGEST_SUFFIX.length, `must be at most ${63 - LONGEST_SUFFIX.length} characters`)
    .regex(IDENTIFIER, IDENTIFIER_RULE)
    .optional(),
}) satisfies z.ZodType<TableLocation, TableLocation>;

export interface TableNames {
  /** Schema-qualified where a schema is set, ready to put in SQL. */
  webhookEvents: string;
  orderLocks: string;
  orderAttempts: string;
  migrations: string;
  /** The schema, quoted, or undefined for the search_path's. */
  schema: string | undefined;
  /** What tells these tables apart from others in the database: schema and prefix. */
  id: string;
}

/** The names under `location`; it must have been validated against tableLocationSchema. */
export function tableNamesOf({ schema, tablePrefix = DEFAULT_TABLE_PREFIX }: TableLocation): TableNames {
  const quotedSchema = schema === undefined ? undefined : `"${schema}"`;
  const name = (table: string) => `${quotedSchema === undefined ? '' : `${quotedSchema}.`}${tablePrefix}${table}`;
  return {
    webhookEvents: name('webhook_events'),
    orderLocks: name('order_locks'),
    orderAttempts: name('order_attempts'),
    migrations: name('migrations'),
    schema: quotedSchema,
    id: `${schema ?? ''}.${tablePrefix}`,
  };
}

/** `sql` (from a shipped file) with its table names given `tablePrefix`. */
export function withTablePrefix(sql: string, tablePrefix = DEFAULT_TABLE_PREFIX): string {
  return sql.replaceAll(new RegExp(`\\b${SHIPPED_TABLE_PREFIX}`, 'g'), tablePrefix);
}
