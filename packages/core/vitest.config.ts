import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { packageTests } from '../../tools/vitest.shared';

/**
 * Run a second time on the web platform (Web Crypto and fetch, what Bun, Deno,
 * workerd and the edge runtime get), inside Node 20, which has both: the
 * client, its transport and retries against real HTTP servers and the sandbox,
 * the webhook verifier, and the ids and keys derived through the crypto seam.
 * `*.web.test.ts` files run there only.
 */
const ON_BOTH_PLATFORMS = [
  'auth-and-retry',
  'cancel-checkout',
  'client-http',
  'client-lifecycle',
  'client-options',
  'idempotency-store',
  'late-processing',
  'not-sent',
  'one-order-one-charge',
  'order-guard-ids',
  'outcome-unknown',
  'path-scoped-guard',
  'redaction',
  'request-limits',
  'service-refusal',
  'session-and-status',
  'wallet',
  'webhook-event',
  'webhook-verify',
];
const WEB_ONLY = 'test/**/*.web.test.ts';
const webBinding = (name: string) => fileURLToPath(new URL(`src/platform/${name}.web.ts`, import.meta.url));

const base = packageTests();
const nodeProject = mergeConfig(base, { test: { name: 'node', exclude: [WEB_ONLY] } });
const webProject = {
  ...base,
  resolve: {
    // What the web build's esbuild plugin does (tsup.config.ts): platform/current and current-verifier are the web bindings.
    alias: [
      { find: /^(\.\.?\/)+(?:.*\/)?platform\/current$/, replacement: webBinding('current') },
      { find: /^(\.\.?\/)+(?:.*\/)?platform\/current-verifier$/, replacement: webBinding('current-verifier') },
      ...((base.resolve?.alias ?? []) as Array<{ find: RegExp | string; replacement: string }>),
    ],
  },
  test: {
    ...base.test,
    name: 'web',
    include: [...ON_BOTH_PLATFORMS.map((name) => `test/${name}.test.ts`), WEB_ONLY],
    setupFiles: ['test/support/warm-fetch.ts'],
  },
};

export default defineConfig({ test: { projects: [nodeProject, webProject] } });
