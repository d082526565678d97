import { pgliteDataDir } from '../../../../tools/pglite-data-dir';
import { postgresSkipped, startPostgresServer } from '../../../../tools/postgres-server';

/** The two places a shop keeps its orders: PGlite in a folder (`npm start`'s default), or a PostgreSQL server (DATABASE_URL). */
export type DatabaseKind = 'PGlite' | 'PostgreSQL';

export interface ShopDatabaseForTest {
  /** What to merge into the shop's environment (`readShopConfig`) and options. */
  env: Record<string, string>;
  dataDir?: string;
  /** Deletes the folder, or stops the server and deletes its data. */
  remove(): void;
}

/** Whether a suite on `kind` cannot run here (only a local run without PostgreSQL; under CI that throws). */
export const databaseSkipped = (kind: DatabaseKind): boolean => kind === 'PostgreSQL' && postgresSkipped;

export async function shopDatabase(kind: DatabaseKind): Promise<ShopDatabaseForTest> {
  if (kind === 'PGlite') {
    const folder = await pgliteDataDir();
    return { env: {}, dataDir: folder.dir, remove: () => folder.remove() };
  }
  const server = await startPostgresServer();
  return { env: { DATABASE_URL: server.url }, remove: () => server.destroy() };
}
