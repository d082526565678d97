import { join } from 'node:path';
import { serveWorker, type RunningWorker } from '../../../../tools/workerd';

/**
 * Serves `entry` (a Worker under test/support that re-exports PaymountState)
 * with workerd as wrangler would deploy it: PaymountState bound as
 * PAYMOUNT_STATE on SQLite storage (a `new_sqlite_classes` migration), a D1
 * database as DB, no `nodejs_compat`. `bindings` are the Worker's other
 * variables.
 */
export function startStoresWorker(entry: string, bindings: Record<string, unknown> = {}): Promise<RunningWorker> {
  return serveWorker(
    { file: join(import.meta.dirname, '..', entry) },
    {
      bindings,
      durableObjects: { PAYMOUNT_STATE: { className: 'PaymountState', useSQLite: true } },
      d1Databases: ['DB'],
      // The runtime's own module, which wrangler leaves to workerd too.
      external: ['cloudflare:workers'],
    },
  );
}
