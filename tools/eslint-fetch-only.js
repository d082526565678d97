// @ts-check

/**
 * The lint rules of a package whose source runs beyond Node (an edge runtime, a framework's other adapters and
 * runtimes): Fetch and Web APIs only, and core's runtime-neutral entries. `where` says where else the source
 * runs, and ends each refusal's message.
 * @param {string} where
 */
export function fetchOnlySources(where) {
  const why = `is Node only, and ${where}: use the Fetch or Web API`;
  return {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: `A node: module ${why}.` },
            { regex: '^(undici|@paymount/sandbox)$', message: `This package ${why}.` },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: `Buffer ${why}.` }, { name: 'require', message: `require ${why}.` }],
    },
  };
}
