import { validate } from '@paymount/core/schemas';
import type { PostgresDatabase } from './database';
import { shippedMigrationFiles } from './shipped-migrations';
import { tableLocationSchema, tableNamesOf, withTablePrefix, type TableLocation } from './table-names';

export type MigrateOptions = TableLocation;

interface Migration {
  name: string;
  statements: string[];
}

/** The shipped SQL files, in name order, each cut into statements (the files hold no `;` but at a statement's end). */
function shippedMigrations(tablePrefix: string | undefined): Migration[] {
  return shippedMigrationFiles().map(({ name, sql }) => ({
    name,
    statements: withTablePrefix(sql.replace(/^\s*--.*$/gm, ''), tablePrefix)
      .split(/;\s*$/m)
      .map((statement) => statement.trim())
      .filter((statement) => statement !== ''),
  }));
}

/**
 * The one advisory lock every paymount migration of a database takes. Not one
 * per location as spelled: no `schema` and `schema: 'public'` name the same
 * tables, and two prefixes in a new schema both create that schema, so
 * migrations of different spellings collide in the catalog (a duplicate key
 * on `pg_type` or `pg_namespace`) unless they take turns. A migration is a
 * start-up step of milliseconds: taking turns across all of them costs nothing.
 */
const MIGRATION_LOCK = 'paymount migrate';

/**
 * Creates or brings up to date the stores' tables: applies each shipped SQL
 * file not yet recorded in `<prefix>migrations`, in one transaction under an
 * advisory lock that every paymount migration of the database shares, so
 * instances starting together apply each once and none uses half-made
 * tables. Safe to call at every start. Resolves the names of the migrations
 * it applied.
 */
export async function migrate(db: PostgresDatabase, options: MigrateOptions = {}): Promise<string[]> {
  const location = validate(tableLocationSchema, options, 'migrate options');
  const names = tableNamesOf(location);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    if (names.schema !== undefined) {
      await tx.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
      await tx.query(`SET LOCAL search_path TO ${names.schema}`);
    }
    await tx.query(`CREATE TABLE IF NOT EXISTS ${names.migrations} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await tx.query<{ name: string }>(`SELECT name FROM ${names.migrations}`);
    const applied = new Set(rows.map((row) => row.name));
    const now: string[] = [];
    for (const migration of shippedMigrations(location.tablePrefix)) {
      if (applied.has(migration.name)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query(`INSERT INTO ${names.migrations} (name) VALUES ($1)`, [migration.name]);
      now.push(migration.name);
    }
    return now;
  });
}
