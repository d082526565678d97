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
};

/**
 * The web build binds the web platform: every import of platform/current (or
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

// Built twice, with one set of declarations: package.json's `exports` picks the build by condition.
export default [
  // Node (the `node` condition): node:crypto and undici. shims: the CJS build gets import.meta.url,
  // which platform/node/otel.ts resolves the optional peer from. The web build's folder is its own to clean.
  packageBuild(entry, { splitting: true, shims: true, clean: ['!web/**'] }),
  // Every other runtime (workerd, edge-light, Bun, Deno, browsers, default): Web Crypto and fetch, no node:* import.
  packageBuild(entry, {
    outDir: 'dist/web',
    splitting: true,
    dts: false,
    platform: 'neutral',
    target: 'es2022',
    esbuildPlugins: [webPlatform],
  }),
];
