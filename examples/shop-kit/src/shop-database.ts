import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@paymount/core';
import { fromPg, fromPGlite, lockPGliteFolder, migrate, type PostgresDatabase } from '@paymount/postgres';

/** The shop's own migrations: beside `src/`. */
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Where the shop keeps its orders: a PostgreSQL server, or PGlite (Postgres in the process) in a folder or in memory. */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | undefined };

export interface ShopDatabase {
  db: PostgresDatabase;
  /** Where the orders are, in words for the console (never the URL: it may hold a password). */
  describe: string;
  /** What to do when it cannot be used. */
  fix: string;
  close(): Promise<void>;
}

/**
 * Opens the shop's database. The drivers are loaded only for the kind asked
 * for: PGlite's WebAssembly is not paid for by a shop on a PostgreSQL server.
 */
export async function openShopDatabase(location: DatabaseLocation, logger: Logger): Promise<ShopDatabase> {
  if (location.kind === 'postgres') {
    const { default: pg } = await import('pg');
    // A connection timeout, so a server that does not answer is noticed within the service's webhook wait.
    const pool = new pg.Pool({ connectionString: location.url, connectionTimeoutMillis: 2_000 });
    const { hostname, port, pathname } = new URL(location.url);
    const describe = `PostgreSQL at ${hostname}:${port || 5432}${pathname}`;
    // An idle connection the server dropped (a restart): the pool opens another when one is needed.
    pool.on('error', (error) => logger.warn({ err: error }, `${describe} closed an idle connection; the next query opens a new one`));
    const fix = 'check that the server runs and that DATABASE_URL names it, with a user allowed to create tables, or unset DATABASE_URL to keep the orders in PGlite';
    return { db: fromPg(pool), describe, fix, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  let release = () => {};
  if (location.dataDir !== undefined) {
    mkdirSync(location.dataDir, { recursive: true });
    // Before PGlite opens the folder: a second shop is refused before it touches another's files.
    release = lockPGliteFolder(location.dataDir, { fix: 'Stop that shop, or give this one a PostgreSQL server through DATABASE_URL.' });
  }
  let pglite;
  try {
    pglite = await PGlite.create(location.dataDir);
  } catch (error) {
    release();
    throw error;
  }
  return {
    db: fromPGlite(pglite),
    describe: location.dataDir === undefined ? 'PGlite in memory (lost on exit)' : `PGlite in ${location.dataDir}`,
    fix: `delete ${location.dataDir ?? 'nothing'} to start with no orders, or set DATABASE_URL to use a PostgreSQL server`,
    close: async () => {
      await pglite.close();
      release();
    },
  };
}

/** The shop's statements, each file cut at the `;` that ends a line. */
function shopStatements(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .flatMap((file) =>
      readFileSync(`${MIGRATIONS_DIR}${file}`, 'utf8')
        .replace(/^\s*--.*$/gm, '')
        .split(/;\s*$/m)
        .map((statement) => statement.trim())
        .filter((statement) => statement !== ''),
    );
}

/**
 * Brings the database up to date before the shop serves: paymount's tables
 * (its shipped migrations), then the shop's orders, in one transaction under
 * an advisory lock so shops starting together on one server do not race.
 */
export async function migrateShopDatabase(database: Pick<ShopDatabase, 'db' | 'describe' | 'fix'>): Promise<void> {
  const { db, describe, fix } = database;
  try {
    await migrate(db);
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['paymount example shop migrate']);
      for (const statement of shopStatements()) await tx.query(statement);
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The shop's database (${describe}) could not be prepared: ${reason}. Fix: ${fix}.`, { cause: error });
  }
}
