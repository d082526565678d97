/**
 * A shop process opening its PGlite data folder (PAYMOUNT_DATA_DIR) as a shop
 * starts, for the tests of the folder's lock (../persistence.test.ts). Over
 * IPC it reports whether it opened the folder or was refused (with the
 * error's message), then holds what it opened until it is killed.
 */
import type { Logger } from '@paymount/core';
import { openShopDatabase } from '../../src/shop-database';

export type FromFolderProcess = { kind: 'opened' } | { kind: 'refused'; message: string };

const dataDir = process.env.PAYMOUNT_DATA_DIR;
if (dataDir === undefined) throw new Error('PAYMOUNT_DATA_DIR is not set');
const send = (message: FromFolderProcess) => {
  if (!process.send) throw new Error('pglite-folder-process must be started with an IPC channel (fork)');
  process.send(message);
};

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
try {
  await openShopDatabase({ kind: 'pglite', dataDir }, silent);
  send({ kind: 'opened' });
} catch (error) {
  send({ kind: 'refused', message: (error as Error).message });
}
// Held open until the test kills it: a child's IPC channel alone does not keep it running.
setInterval(() => {}, 60_000);
