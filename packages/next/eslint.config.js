// @ts-check
import rootConfig from '../../eslint.config.js';

/** The route handlers run on the Node and the edge runtime: Fetch and Web APIs only, and core's runtime-neutral entry. */
const EDGE = 'is Node only, and the route handlers also run on the edge runtime: use the Fetch or Web API';

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
            { regex: '^node:', message: `A node: module ${EDGE}.` },
            { regex: '^(undici|@paymount/sandbox)$', message: `This package ${EDGE}.` },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: `Buffer ${EDGE}.` }, { name: 'require', message: `require ${EDGE}.` }],
    },
  },
];
