import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { packageTests, TEST_LIMITS } from '../../tools/vitest.shared';
import { COMPATIBILITY_DATE } from '../../tools/workerd';

/** The store contract suites, run inside workerd itself; every other test file runs on Node. */
const IN_WORKERD = ['test/contracts.test.ts'];

export default defineConfig({
  test: {
    projects: [
      // Node drives a Worker that tools/workerd.ts serves, one test file at a time: each starts its own workerd.
      // The projects take turns (groupOrder), so a run starts one workerd at a time.
      packageTests({ name: 'node', exclude: IN_WORKERD, fileParallelism: false, sequence: { groupOrder: 1 } }),
      {
        // Not packageTests(): its aliases point @paymount/core at its sources, whose platform is Node's (undici,
        // node:crypto); in workerd, core is its built `workerd` entry, as a merchant's Worker gets it.
        test: { name: 'workerd', include: IN_WORKERD, ...TEST_LIMITS, sequence: { groupOrder: 0 } },
        // PaymountState bound as a merchant's wrangler.jsonc binds it (SQLite storage), and a D1 database. The pool
        // itself turns nodejs_compat on for the Worker the tests run in: vitest's runner needs Node's APIs there.
        plugins: [
          cloudflareTest({
            main: './test/support/contracts-main.ts',
            miniflare: {
              compatibilityDate: COMPATIBILITY_DATE,
              durableObjects: { PAYMOUNT_STATE: { className: 'PaymountState', useSQLite: true } },
              d1Databases: ['DB'],
            },
          }),
        ],
      },
    ],
  },
});
