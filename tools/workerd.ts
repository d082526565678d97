// A Worker under test: bundled as wrangler bundles it, served by workerd (through Miniflare) on 127.0.0.1, as
// `wrangler dev` serves it. Shared by tests/runtimes, @paymount/cloudflare's and @paymount/postgres's tests.
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { Miniflare, type MiniflareOptions } from 'miniflare';

/** workerd's own compatibility date (npm workerd 1.20260426). */
export const COMPATIBILITY_DATE = '2026-04-26';
const START_TIMEOUT_MS = 60_000;

/**
 * How a Worker is bundled, as wrangler does it: ESM, the `workerd`, `worker`
 * and `browser` export conditions, minified. `node:*` stays external, so a
 * build that still needs Node fails where a Worker without `nodejs_compat`
 * would: at load, with workerd's `No such module "node:…"`.
 */
export const WORKER_BUILD = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2022',
  minify: true,
  external: ['node:*'],
  // Not the repository's tsconfig, whose `paths` map @paymount/core to its sources: the built package, as a merchant gets it.
  tsconfigRaw: {},
  logLevel: 'silent',
} as const satisfies BuildOptions;

/** What is bundled: a file, or source text whose imports resolve from `resolveDir`. */
export type BundleEntry = { file: string } | { source: string; resolveDir: string };
/** A Worker's entry; source text is named `file` in workerd's messages. */
export type WorkerEntry = { file: string } | { source: string; resolveDir: string; file: string };

export interface WorkerBundle {
  code: string;
  /** The names the bundle exports. */
  exports: string[];
  /** The modules the bundle still imports, left to the runtime. */
  imports: string[];
  /** The `node:*` modules the bundle still imports: each one is a load failure on workerd without nodejs_compat. */
  nodeImports: string[];
  /** Bytes of the minified output taken from each package (or `(own code)`), largest first. */
  byPackage: [string, number][];
}

/** Bundles `entry` as a Worker; `external` adds the runtime's own modules (`cloudflare:workers`) that wrangler leaves to workerd. */
export async function bundleWorker(entry: BundleEntry, external: readonly string[] = []): Promise<WorkerBundle> {
  const result = await build({
    ...WORKER_BUILD,
    external: [...WORKER_BUILD.external, ...external],
    ...('source' in entry ? { stdin: { contents: entry.source, resolveDir: entry.resolveDir, loader: 'js' } } : { entryPoints: [entry.file] }),
    write: false,
    metafile: true,
    outdir: 'out',
  });
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? (input.includes('packages/core/') ? '@paymount/core' : '(own code)');
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const imports = [...new Set(output?.imports.map((i) => i.path))].sort();
  return {
    code: result.outputFiles[0]?.text ?? '',
    exports: [...(output?.exports ?? [])].sort(),
    imports,
    nodeImports: imports.filter((path) => path.startsWith('node:')),
    byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
  };
}

/** What a Worker is served with, as its wrangler configuration would give it. */
export interface WorkerSettings {
  /** The Worker's `env` variables. */
  bindings?: Record<string, unknown>;
  /** 0 (the default) lets the system pick; a Worker that must know its own address before it starts (its notify URL) is given one. */
  port?: number;
  /** `nodejs_compat` for a driver that needs Node's APIs; none by default: core must need none. */
  compatibilityFlags?: string[];
  durableObjects?: MiniflareOptions['durableObjects'];
  d1Databases?: string[];
  /** Modules the runtime provides, left out of the bundle. */
  external?: readonly string[];
}

export interface RunningWorker {
  /** Where workerd serves the Worker on 127.0.0.1. */
  url: URL;
  miniflare: Miniflare;
  /** ` [the bundle imports node:…]` when it still needs Node, to append to a failure; else empty. */
  stillNode: string;
  dispose(): Promise<void>;
}

/** Bundles `entry` and serves it with workerd; a Worker that fails to start is disposed of, its error naming any Node import left. */
export async function serveWorker(entry: WorkerEntry, settings: WorkerSettings = {}): Promise<RunningWorker> {
  const bundle = await bundleWorker(entry, settings.external);
  const stillNode = bundle.nodeImports.length === 0 ? '' : ` [the bundle imports ${bundle.nodeImports.join(', ')}]`;
  const miniflare = new Miniflare({
    modules: true,
    script: bundle.code,
    // Names the script in workerd's messages: the bundle itself is passed as text.
    scriptPath: ('source' in entry ? join(entry.resolveDir, entry.file) : entry.file).replace(/\.m?[jt]s$/, '.bundle.mjs'),
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: settings.compatibilityFlags ?? [],
    bindings: settings.bindings ?? {},
    ...(settings.durableObjects === undefined ? {} : { durableObjects: settings.durableObjects }),
    ...(settings.d1Databases === undefined ? {} : { d1Databases: settings.d1Databases }),
    host: '127.0.0.1',
    port: settings.port ?? 0,
    cf: false,
  });
  const dispose = () => miniflare.dispose().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      miniflare.ready,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`workerd did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS))),
    ]);
    return { url, miniflare, stillNode, dispose };
  } catch (error) {
    await dispose();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${stillNode}`);
  } finally {
    clearTimeout(timer);
  }
}
