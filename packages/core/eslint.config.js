// @ts-check
import rootConfig from '../../eslint.config.js';

/**
 * Core runs on Node, Bun, Deno, workerd and the edge runtime: only the Node
 * platform (src/platform/node) and the Node HTTP bridge may reach for Node's
 * modules, undici or Buffer. Everything else uses Web APIs (see src/bytes.ts).
 */
const NODE_ONLY = 'is Node only: core also runs on Bun, Deno, workerd and the edge runtime. Put it behind src/platform (platform/node) or use the Web API';

const NODE_MODULES = [
  { regex: '^node:', message: `A node: module ${NODE_ONLY}.` },
  { regex: '^undici$', message: `undici ${NODE_ONLY}.` },
];

/**
 * The order guard (src/orders) owns the per-order protocol and answers with
 * typed refusals; the routes map those to responses. An import the other way
 * would tie the protocol to HTTP again.
 */
const ROUTES_FROM_ORDERS = {
  regex: '^\\.\\./routes(/|$)',
  message: 'src/orders must not depend on the routes: return a refusal (orders/refusals.ts) and let routes/order-refusals.ts map it to a response.',
};

export default [
  ...rootConfig,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/node/**', 'src/routes/node-http-bridge.ts', 'src/routes/node-middleware.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: NODE_MODULES }],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: `Buffer ${NODE_ONLY} (src/bytes.ts has the portable helpers).` },
        { name: 'process', message: `process ${NODE_ONLY}.` },
        { name: 'require', message: `require ${NODE_ONLY}.` },
      ],
    },
  },
  {
    // Listed with the Node rule: a later block's options replace an earlier block's for the same rule.
    files: ['src/orders/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...NODE_MODULES, ROUTES_FROM_ORDERS] }],
    },
  },
];
