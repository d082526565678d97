// @ts-check
import rootConfig from '../../eslint.config.js';

/** The endpoints run on every SSR adapter (Node, Deno, Cloudflare, Netlify, Vercel): Fetch and Web APIs only, and core's runtime-neutral entry. */
const ANY_ADAPTER = 'is Node only, and the endpoints also run on the edge adapters: use the Fetch or Web API';

export default [
  ...rootConfig,
  // The test app put together and built by the tests (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**'] },
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: `A node: module ${ANY_ADAPTER}.` },
            { regex: '^(undici|@paymount/sandbox)$', message: `This package ${ANY_ADAPTER}.` },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: `Buffer ${ANY_ADAPTER}.` }, { name: 'require', message: `require ${ANY_ADAPTER}.` }],
    },
  },
];
