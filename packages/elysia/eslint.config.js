// @ts-check
import rootConfig from '../../eslint.config.js';

/** The plugin runs wherever Elysia does (Bun first): Fetch and Web APIs only, and core's runtime-neutral entries. */
const WEB = 'is Node only, and the plugin runs on Bun and every runtime Elysia serves: use the Fetch or Web API';

export default [
  ...rootConfig,
  // The compiled test app (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**'] },
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: `A node: module ${WEB}.` },
            { regex: '^(undici|@paymount/sandbox)$', message: `This package ${WEB}.` },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: `Buffer ${WEB}.` }, { name: 'require', message: `require ${WEB}.` }],
    },
  },
];
