import { builtinModules, isBuiltin } from 'node:module';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

/** The Node modules (`node:fs` or `fs`) a bundle of all `@paymount/postgres` exports, made with these export conditions, still imports. */
async function nodeImportsOf(conditions: string[], platform: 'browser' | 'node' = 'browser'): Promise<string[]> {
  const result = await build({
    stdin: {
      contents: "export * from '@paymount/postgres';",
      resolveDir: import.meta.dirname,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform,
    conditions,
    external: ['node:*', ...builtinModules],
    // Not the repository's tsconfig, whose `paths` map the packages to their sources: the built package, as a merchant gets it.
    tsconfigRaw: {},
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0];
  return [...new Set(output?.imports.filter((i) => isBuiltin(i.path)).map((i) => i.path.replace(/^node:/, '')))];
}

// A node: import is a load failure on workerd without nodejs_compat and in the Next.js edge runtime.
it.each([
  ['Cloudflare Workers (as wrangler bundles)', ['workerd', 'worker', 'browser']],
  ['the Next.js edge runtime', ['edge-light', 'browser']],
])('the built package, bundled for %s, imports no Node module', async (_runtime, conditions) => {
  expect(await nodeImportsOf(conditions)).toEqual([]);
});

it('the Node build is the one Node gets: its PGlite folder lock imports fs', async () => {
  expect(await nodeImportsOf(['node'], 'node')).toContain('fs');
});
