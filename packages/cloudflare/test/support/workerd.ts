import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { WORKER_BUILD } from '../../../../tests/runtimes/support/worker-build';
import { COMPATIBILITY_DATE } from '../../../../tests/runtimes/support/workerd';

const START_TIMEOUT_MS = 60_000;

export interface StoresWorker {
  url: URL;
  miniflare: Miniflare;
  dispose(): Promise<void>;
}

/**
 * Bundles `entry` (a Worker under test/support that re-exports PaymountState)
 * as wrangler does, and serves it with workerd on 127.0.0.1: PaymountState
 * bound as PAYMOUNT_STATE on SQLite storage (a `new_sqlite_classes`
 * migration), a D1 database as DB, no `nodejs_compat`. `bindings` are the
 * Worker's other variables.
 */
export async function startStoresWorker(entry: string, bindings: Record<string, unknown> = {}): Promise<StoresWorker> {
  const bundled = await build({
    ...WORKER_BUILD,
    // The runtime's own module, which wrangler leaves to workerd too.
    external: [...WORKER_BUILD.external, 'cloudflare:workers'],
    entryPoints: [join(import.meta.dirname, '..', entry)],
    write: false,
    outdir: 'out',
  });
  const miniflare = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]?.text ?? '',
    scriptPath: join(import.meta.dirname, '..', entry.replace(/\.ts$/, '.bundle.mjs')),
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { PAYMOUNT_STATE: { className: 'PaymountState', useSQLite: true } },
    d1Databases: ['DB'],
    bindings,
    host: '127.0.0.1',
    port: 0,
    cf: false,
  });
  const dispose = () => miniflare.dispose().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      miniflare.ready,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`workerd did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS))),
    ]);
    return { url, miniflare, dispose };
  } finally {
    clearTimeout(timer);
  }
}
