// @ts-check
import rootConfig from '../../eslint.config.js';

/**
 * Core runs on Node, Bun, Deno, workerd and the edge runtime: only the Node
 * platform (src/platform/node) and the Node HTTP bridge may reach for Node's
 * modules, undici or Buffer. Everything else uses Web APIs (see src/bytes.ts).
 */
const NODE_ONLY = 'is Node only: core also runs on Bun, Deno, workerd and the edge runtime. Put it behind src/platform (platform/node) or use the Web API';

export default [
  ...rootConfig,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/node/**', 'src/routes/node-http-bridge.ts', 'src/routes/node-middleware.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: `A node: module ${NODE_ONLY}.` },
            { regex: '^undici$', message: `undici ${NODE_ONLY}.` },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: `Buffer ${NODE_ONLY} (src/bytes.ts has the portable helpers).` },
        { name: 'process', message: `process ${NODE_ONLY}.` },
        { name: 'require', message: `require ${NODE_ONLY}.` },
      ],
    },
  },
];
