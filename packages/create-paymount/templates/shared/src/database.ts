import { mkdirSync } from 'node:fs';
import { fromPg, fromPGlite, migrate, type PostgresDatabase } from '@paymount/postgres';
import type { ShopConfig } from './config.js';
import { ORDERS_TABLE } from './orders.js';

export interface ShopDatabase {
  db: PostgresDatabase;
  /** Where the orders are, for the console: never the URL, which may hold a password. */
  describe: string;
  close(): Promise<void>;
}

async function open(config: ShopConfig): Promise<ShopDatabase> {
  if (config.databaseUrl !== undefined) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: config.databaseUrl, connectionTimeoutMillis: 2_000 });
    // A server restart ends idle connections; without a listener node-postgres ends the process.
    pool.on('error', (error) => console.error(`PostgreSQL closed an idle connection (${error.message}); the next query opens another`));
    const { hostname, port, pathname } = new URL(config.databaseUrl);
    return { db: fromPg(pool), describe: `PostgreSQL at ${hostname}:${port || 5432}${pathname}`, close: () => pool.end() };
  }
  // Loaded only when used: a shop on a PostgreSQL server does not pay for PGlite's WebAssembly.
  const { PGlite } = await import('@electric-sql/pglite');
  if (config.dataDir !== undefined) mkdirSync(config.dataDir, { recursive: true });
  const pglite = await PGlite.create(config.dataDir);
  return {
    // fromPGlite claims the folder: a second shop on it is refused rather than both writing it.
    db: fromPGlite(pglite),
    describe: config.dataDir === undefined ? 'PGlite in memory (lost on exit)' : `PGlite in ${config.dataDir}`,
    close: () => pglite.close(),
  };
}

/** The shop's database, ready: paymount's tables (its shipped migrations), then the shop's orders. */
export async function openDatabase(config: ShopConfig): Promise<ShopDatabase> {
  const database = await open(config);
  try {
    await migrate(database.db);
    await database.db.query(ORDERS_TABLE);
    return database;
  } catch (error) {
    await database.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The shop's database (${database.describe}) could not be prepared: ${reason}`, { cause: error });
  }
}
