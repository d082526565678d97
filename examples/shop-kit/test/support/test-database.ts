import type { Logger } from '@paymount/core';
import { pgliteDataDir } from '../../../../tools/pglite-data-dir';
import { migrateShopDatabase, openShopDatabase, type ShopDatabase } from '../../src/shop-database';

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The shop's database, migrated, in PGlite in a temporary folder; `close()` also deletes the folder. */
export async function testDatabase(): Promise<ShopDatabase> {
  const folder = await pgliteDataDir();
  const database = await openShopDatabase({ kind: 'pglite', dataDir: folder.dir }, silent);
  await migrateShopDatabase(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      folder.remove();
    },
  };
}
