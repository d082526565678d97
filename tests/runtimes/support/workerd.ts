import { join } from 'node:path';
import { serveWorker, type RunningWorker } from '../../../tools/workerd';
import { RUNTIMES_DIR } from './processes';

export { COMPATIBILITY_DATE, type RunningWorker } from '../../../tools/workerd';

/** A Worker's source text, and the file name it goes by in workerd's messages. */
export interface WorkerSource {
  source: string;
  file: string;
}

/**
 * Serves `entry` (a Worker under tests/runtimes, or source text made by a test
 * with what its global scope must know) with workerd, no `nodejs_compat`:
 * core must need none. The sandbox's webhooks reach it over HTTP.
 */
export function startWorker(entry: string | WorkerSource, bindings: Record<string, unknown> = {}, port = 0): Promise<RunningWorker> {
  return serveWorker(typeof entry === 'string' ? { file: join(RUNTIMES_DIR, entry) } : { ...entry, resolveDir: RUNTIMES_DIR }, { bindings, port });
}
