import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Limits for a hung test, never a verdict: a test that starts Node processes, servers or PGlite, or
 * compiles with tsc, takes several times as long with both cores busy (20 s was passed by 8 node -e
 * runs in a loaded CI run; 60 s by the readmes' compile of the fix hints with three CI runs at once).
 */
export const TEST_LIMITS = { testTimeout: 180_000, hookTimeout: 240_000 };

/**
 * Tests run against the TypeScript sources of sibling packages, so a change in
 * @paymount/core is seen by the adapter tests without a rebuild. Packaging tests
 * exercise the built `dist/` separately, from plain Node. Type tests (`test/*.test-d.ts`) are
 * not run here: every package's tsconfig includes `test`, so its `typecheck` task compiles them
 * with the sources, and a failed `expectTypeOf` or an unused `@ts-expect-error` fails that task.
 * (Vitest's typecheck ran that whole tsc a second time inside `test`: 8 to 25 s a package.)
 *
 * Two files at a time: on two cores vitest's default is one worker, and most files wait on servers,
 * processes and timers more than they compute (core's run took 438 s in a CI run, and 266 s of CPU
 * measured alone), so a second worker fills the waits. A package whose files must not overlap says
 * `fileParallelism: false`.
 */
export function packageTests(overrides: ViteUserConfig['test'] = {}) {
  return defineConfig({
    resolve: {
      alias: [
        {
          // The core's subpath entries (see packages/core/tsup.config.ts).
          find: /^@paymount\/core\/(schemas|http|stores|webhooks|internal)$/,
          replacement: `${root}packages/core/src/entries/$1.ts`,
        },
        {
          find: /^@paymount\/(core|sandbox|express|koa|hono|nestjs|redis|bullmq|postgres|react-router|browser|react|tanstack-start|nuxt)$/,
          replacement: `${root}packages/$1/src/index.ts`,
        },
      ],
    },
    test: {
      include: ['test/**/*.test.ts'],
      maxWorkers: 2,
      ...TEST_LIMITS,
      ...overrides,
    },
  });
}
