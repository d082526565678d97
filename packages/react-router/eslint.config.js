// @ts-check
import rootConfig from '../../eslint.config.js';

/** A resource route runs wherever React Router serves (Node, Cloudflare Workers, Deno, Bun): Fetch and Web APIs only, and core's runtime-neutral entry. */
const ANY_RUNTIME = 'is Node only, and the route also runs on the other runtimes React Router serves from: use the Fetch or Web API';

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
            { regex: '^node:', message: `A node: module ${ANY_RUNTIME}.` },
            { regex: '^(undici|@paymount/sandbox)$', message: `This package ${ANY_RUNTIME}.` },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: `Buffer ${ANY_RUNTIME}.` }, { name: 'require', message: `require ${ANY_RUNTIME}.` }],
    },
  },
];
