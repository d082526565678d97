import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { packageBuild } from '../../tools/tsup.shared';

// One bundle per public entry, listed in package.json's `exports`. Shared code is split into common
// chunks so that every entry sees the same classes: a PaymentValidationError thrown by
// `@paymount/core/schemas`' `validate` is `instanceof` the root's.
const entry = {
  index: 'src/index.ts',
  schemas: 'src/entries/schemas.ts',
  http: 'src/entries/http.ts',
  stores: 'src/entries/stores.ts',
  webhooks: 'src/entries/webhooks.ts',
  // For the workspace's packages and core's tests, not applications: see src/entries/internal.ts.
  internal: 'src/entries/internal.ts',
};

/**
 * The web builds bind the web platform: every import of platform/current (or
 * platform/current-verifier) resolves to its `.web.ts` twin.
 */
const webPlatform: Plugin = {
  name: 'paymount-web-platform',
  setup(build) {
    build.onResolve({ filter: /(^|\/)platform\/current(-verifier)?$/ }, ({ path }) => ({
      path: fileURLToPath(new URL(`src/platform/${path.slice(path.lastIndexOf('/') + 1)}.web.ts`, import.meta.url)),
    }));
  },
};

/**
 * The edge build binds schemas/compiled to its no-eval twin: workerd and the
 * edge runtime forbid code generation, so zod's compiler could only fall back
 * to the parser there, and it is about 9 KB of a Worker's gzipped bundle.
 */
const noEvalSchemas: Plugin = {
  name: 'paymount-no-eval-schemas',
  setup(build) {
    build.onResolve({ filter: /(^|\/)schemas\/compiled$|^\.\/compiled$/ }, () => ({
      path: fileURLToPath(new URL('src/schemas/compiled.no-eval.ts', import.meta.url)),
    }));
  },
};

/** A build for runtimes other than Node: Web Crypto and fetch, no node:* import. */
const webBuild = (outDir: string, esbuildPlugins: Plugin[]) =>
  packageBuild({ ...entry, internal: 'src/entries/internal.web.ts' }, { outDir, splitting: true, dts: false, platform: 'neutral', target: 'es2022', esbuildPlugins });

// Built three times, with one set of declarations: package.json's `exports` picks the build by condition.
export default [
  // Node (the `node` condition): node:crypto and undici. shims: the CJS build gets import.meta.url,
  // which platform/node/index.ts resolves the optional peer from. The other builds' folders are their own to clean.
  packageBuild(entry, { splitting: true, shims: true, clean: ['!web/**', '!edge/**'] }),
  // Runtimes that allow code generation (Bun, Deno, browsers, `worker`, default): zod's compiled fast path.
  webBuild('dist/web', [webPlatform]),
  // Runtimes that forbid it (`workerd`, `edge-light`): the same code with zod's parser alone.
  webBuild('dist/edge', [webPlatform, noEvalSchemas]),
];
