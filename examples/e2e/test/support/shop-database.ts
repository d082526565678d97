import { pgliteDataDir } from '../../../../tools/pglite-data-dir';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../../tools/postgres-server';

/** The two places a shop keeps its orders: PGlite in a folder (`npm start`'s default), or a PostgreSQL server (DATABASE_URL). */
export const DATABASE_KINDS = ['PGlite', 'PostgreSQL'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

export interface ShopDatabaseForTest {
  /** What to merge into the shop's environment (`readShopConfig`) and options. */
  env: Record<string, string>;
  dataDir?: string;
  /** Deletes the folder (a database on the server goes with the server). */
  remove(): void;
}

/** Whether a suite on `kind` cannot run here (only a local run without PostgreSQL; under CI that throws). */
export const databaseSkipped = (kind: DatabaseKind): boolean => kind === 'PostgreSQL' && postgresSkipped;

/**
 * Fresh databases for the shops of one test file: a PGlite folder each, or a
 * database each on one PostgreSQL server, started (initdb and all) the first
 * time a file asks for one and stopped by `close()`.
 */
export class ShopDatabases {
  private server: Promise<PostgresServer> | undefined;
  private created = 0;

  async open(kind: DatabaseKind): Promise<ShopDatabaseForTest> {
    if (kind === 'PGlite') {
      const folder = await pgliteDataDir();
      return { env: {}, dataDir: folder.dir, remove: () => folder.remove() };
    }
    this.server ??= startPostgresServer();
    this.created += 1;
    const url = (await this.server).createDatabase(`shop_${this.created}`);
    return { env: { DATABASE_URL: url }, remove: () => {} };
  }

  async close(): Promise<void> {
    // A server that failed to start has nothing to stop; its error failed the suite that asked.
    (await this.server?.catch(() => undefined))?.destroy();
  }
}
