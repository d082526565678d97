import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { packageBuild } from '../../tools/tsup.shared';

/** `import sql from '../migrations/x.sql?raw'`: the file's text, as Vite (the tests) gives it. */
const rawText: Plugin = {
  name: 'paymount-raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, ({ path, resolveDir }) => ({ path: fileURLToPath(new URL(path.slice(0, -'?raw'.length), `file://${resolveDir}/`)), namespace: 'raw-text' }));
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, async ({ path }) => ({ contents: await readFile(path, 'utf8'), loader: 'text' }));
  },
};

/** The edge build binds the modules that use the file system to their `.web.ts` twins (a Worker has none). */
const edgeTwins: Plugin = {
  name: 'paymount-postgres-edge-twins',
  setup(build) {
    build.onResolve({ filter: /^\.\/(pglite-folder-lock|shipped-migrations)$/ }, ({ path }) => ({
      path: fileURLToPath(new URL(`src/${path.slice(2)}.web.ts`, import.meta.url)),
    }));
  },
};

// Built twice, with one set of declarations: package.json's `exports` picks the edge build for `workerd`, `edge-light`,
// `worker` and `browser`, the Node one (Node, Bun, Deno) elsewhere.
export default [
  // shims: import.meta.url in the CommonJS build, where migrate() finds the SQL files it ships.
  packageBuild(undefined, { shims: true, clean: ['!edge/**'] }),
  packageBuild(undefined, { outDir: 'dist/edge', dts: false, platform: 'neutral', target: 'es2022', esbuildPlugins: [rawText, edgeTwins] }),
];
