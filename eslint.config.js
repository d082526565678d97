// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/test-results/**', 'bench/results/**',
      // README blocks as written, and the declarations put before them: checked by tests/readmes' compile test.
      'tests/readmes/.generated/**', 'tests/readmes/preludes/**',
      // The Next.js test app put together (README files included) and built by packages/next's tests.
      'packages/next/.test-app/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // Plain JavaScript: Node scripts, and the browser scripts the example shops serve.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['examples/*/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    files: ['**/cli.ts', 'examples/**', 'bench/**', 'tools/**', '**/test/**'],
    rules: { 'no-console': 'off' },
  },
);
