/**
 * A process opening a PGlite data folder (PAYMOUNT_DATA_DIR) as the Drivers
 * block of site/concepts/stores-postgres.md does, `fromPGlite(await
 * PGlite.create(dir))`, for the folder lock's test (../pglite-folder-lock.test.ts). Over IPC it reports whether its stores got
 * the folder or were refused (with the error's message), then keeps it until
 * it is killed.
 */
import { PGlite } from '@electric-sql/pglite';
import { createPostgresStores, fromPGlite } from '../../src/index';

export type FromReadmeProcess = { kind: 'opened' } | { kind: 'refused'; message: string };

const dataDir = process.env.PAYMOUNT_DATA_DIR;
if (dataDir === undefined || process.send === undefined) throw new Error('fork pglite-readme-process with PAYMOUNT_DATA_DIR set');
const pglite = await PGlite.create(dataDir);
try {
  createPostgresStores(fromPGlite(pglite));
  process.send({ kind: 'opened' } satisfies FromReadmeProcess);
} catch (error) {
  process.send({ kind: 'refused', message: (error as Error).message } satisfies FromReadmeProcess);
}
// A child's IPC channel alone does not keep it running: held until the test kills it.
setInterval(() => {}, 60_000);
