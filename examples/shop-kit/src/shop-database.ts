import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromPg, fromPGlite, migrate, type PostgresDatabase } from '@paymount/postgres';

/** The shop's own migrations: beside `src/`. */
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Where the shop keeps its orders: a PostgreSQL server, or PGlite (Postgres in the process) in a folder or in memory. */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | undefined };

export interface ShopDatabase {
  db: PostgresDatabase;
  /** Where the orders are, in words for the console (never the URL: it may hold a password). */
  describe: string;
  close(): Promise<void>;
}

/**
 * Opens the shop's database. The drivers are loaded only for the kind asked
 * for: PGlite's WebAssembly is not paid for by a shop on a PostgreSQL server.
 */
export async function openShopDatabase(location: DatabaseLocation): Promise<ShopDatabase> {
  if (location.kind === 'postgres') {
    const { default: pg } = await import('pg');
    // A connection timeout, so a server that does not answer is noticed within the service's webhook wait.
    const pool = new pg.Pool({ connectionString: location.url, connectionTimeoutMillis: 2_000 });
    // An idle connection the server dropped is reported here; the pool replaces it.
    pool.on('error', () => {});
    const { hostname, port, pathname } = new URL(location.url);
    return { db: fromPg(pool), describe: `PostgreSQL at ${hostname}:${port || 5432}${pathname}`, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  if (location.dataDir !== undefined) mkdirSync(location.dataDir, { recursive: true });
  const pglite = await PGlite.create(location.dataDir);
  return {
    db: fromPGlite(pglite),
    describe: location.dataDir === undefined ? 'PGlite in memory (lost on exit)' : `PGlite in ${location.dataDir}`,
    close: () => pglite.close(),
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
export async function migrateShopDatabase(db: PostgresDatabase): Promise<void> {
  await migrate(db);
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['paymount example shop migrate']);
    for (const statement of shopStatements()) await tx.query(statement);
  });
}
