// @ts-check
import rootConfig from '../../eslint.config.js';

/**
 * Core runs on Node, Bun, Deno, workerd and the edge runtime: only the Node
 * platform (src/platform/node, the HTTP bridge included) may reach for Node's
 * modules, undici or Buffer. Everything else uses Web APIs (see src/shared/bytes.ts).
 */
const NODE_ONLY = 'is Node only: core also runs on Bun, Deno, workerd and the edge runtime. Put it behind src/platform (platform/node) or use the Web API';

const NODE_MODULES = [
  { regex: '^node:', message: `A node: module ${NODE_ONLY}.` },
  { regex: '^undici$', message: `undici ${NODE_ONLY}.` },
];

export default [
  ...rootConfig,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/node/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: NODE_MODULES }],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: `Buffer ${NODE_ONLY} (src/shared/bytes.ts has the portable helpers).` },
        { name: 'process', message: `process ${NODE_ONLY}.` },
        { name: 'require', message: `require ${NODE_ONLY}.` },
      ],
    },
  },
];
