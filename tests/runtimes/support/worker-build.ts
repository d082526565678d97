import { build, type BuildOptions } from 'esbuild';

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

export interface WorkerBundle {
  code: string;
  /** The `node:*` modules the bundle still imports: each one is a load failure on workerd without nodejs_compat. */
  nodeImports: string[];
  /** Bytes of the minified output taken from each package (or `(own code)`), largest first. */
  byPackage: [string, number][];
}

/** Bundles `entry` (a file, or source text resolved from `resolveDir`) as a Worker. */
export async function bundleWorker(entry: { file: string } | { source: string; resolveDir: string }): Promise<WorkerBundle> {
  const result = await build({
    ...WORKER_BUILD,
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.source, resolveDir: entry.resolveDir, loader: 'js' } }),
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
  return {
    code: result.outputFiles[0]?.text ?? '',
    nodeImports: [...new Set(output?.imports.filter((i) => i.path.startsWith('node:')).map((i) => i.path))].sort(),
    byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
  };
}
