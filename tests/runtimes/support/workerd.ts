import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { RUNTIMES_DIR } from './processes';
import { bundleWorker } from './worker-build';

/** workerd's own compatibility date (npm workerd 1.20260426), and no nodejs_compat: core must need none. */
export const COMPATIBILITY_DATE = '2026-04-26';
const START_TIMEOUT_MS = 30_000;

export interface RunningWorker {
  /** Where workerd serves the Worker on 127.0.0.1. */
  url: URL;
  /** ` [the bundle imports node:…]` when it still needs Node, to append to a failure; else empty. */
  stillNode: string;
  dispose(): Promise<void>;
}

/** A Worker's source text, and the file name it goes by in workerd's messages. */
export interface WorkerSource {
  source: string;
  file: string;
}

/**
 * Bundles `file` (a Worker under tests/runtimes, or source text made by a test
 * with what its global scope must know) as wrangler does and serves it
 * with workerd on 127.0.0.1, as `wrangler dev` does: the sandbox's webhooks
 * reach it over HTTP. `bindings` become the Worker's `env`. `port` 0 (the
 * default) lets the system pick one; a Worker that must know its own address
 * before it starts (its notify URL) is given one.
 */
export async function startWorker(entry: string | WorkerSource, bindings: Record<string, unknown> = {}, port = 0): Promise<RunningWorker> {
  const file = typeof entry === 'string' ? entry : entry.file;
  const bundle = await bundleWorker(typeof entry === 'string' ? { file: join(RUNTIMES_DIR, file) } : { source: entry.source, resolveDir: RUNTIMES_DIR });
  const stillNode = bundle.nodeImports.length === 0 ? '' : ` [the bundle imports ${bundle.nodeImports.join(', ')}]`;
  const worker = new Miniflare({
    modules: true,
    script: bundle.code,
    scriptPath: join(RUNTIMES_DIR, file.replace(/\.m?[jt]s$/, '.bundle.mjs')),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    host: '127.0.0.1',
    port,
    cf: false,
  });
  const dispose = () => worker.dispose().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      worker.ready,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`workerd did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS))),
    ]);
    return { url, stillNode, dispose };
  } catch (error) {
    await dispose();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${stillNode}`);
  } finally {
    clearTimeout(timer);
  }
}
