// @ts-check
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** The workspace package a path belongs to: the nearest folder with a package.json, up to the repository's root. */
function packageOf(path) {
  for (let dir = path; dir.startsWith(ROOT) && dir !== ROOT; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return ROOT;
}

/**
 * A package is reached through its package entries (`exports`), never through another package's
 * `src/`: a file moved inside a package then breaks nothing outside it. `@paymount/core/internal`
 * is there for what the workspace shares that applications must not use.
 */
const noOtherPackagesSources = {
  meta: { type: 'problem', schema: [], messages: { sources: "'{{path}}' reaches into another package's src/: import it through that package's entries (its package.json exports)." } },
  create(context) {
    const own = packageOf(dirname(context.filename));
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolve(dirname(context.filename), source.value);
      const owner = packageOf(target);
      if (owner !== own && relative(owner, target).split(sep)[0] === 'src') context.report({ node: source, messageId: 'sources', data: { path: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/test-results/**', 'bench/results/**',
      // README blocks as written, and the declarations put before them: checked by tests/readmes' compile test.
      'tests/readmes/.generated/**', 'tests/readmes/preludes/**', 'tests/fresh-apps/preludes/**',
      // The Next.js test app put together (README files included) and built by packages/next's tests.
      'packages/next/.test-app/**',
      // The hono README's Workers, Bun and Deno files, written out and run by tests/runtimes.
      'tests/runtimes/.readme-apps/**',
      // The site's code blocks written out as projects: checked by tests/site's compile test.
      'tests/site/.generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { paymount: { rules: { 'no-other-packages-sources': noOtherPackagesSources } } },
    rules: {
      'paymount/no-other-packages-sources': 'error',
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
    // Hono serves on Node, Bun, Deno and workerd: its adapter stays on Web APIs.
    files: ['packages/hono/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'undici'], message: 'Hono runs where Node modules do not: use Web APIs.' }] },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'Hono runs where Buffer does not exist: use Uint8Array and TextEncoder.' },
        { name: 'process', message: 'Hono runs where process does not exist.' },
      ],
    },
  },
  {
    // Deno KV's stores run on Deno Deploy: Web APIs only.
    files: ['packages/deno-kv/src/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'The Deno KV stores run on Deno Deploy: use Web APIs.' }] }],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'The Deno KV stores run where Buffer may not exist: use Uint8Array.' },
        { name: 'process', message: 'The Deno KV stores run where process may not exist.' },
      ],
    },
  },
  {
    // tools/redis-server.ts exports functions: passed uncalled to skipIf, a function is truthy and
    // the whole suite skips itself without a word (it happened to three suites).
    files: ['**/test/**', 'bench/**', 'tests/**', 'examples/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(skipIf|runIf)$/] > Identifier[name=/^(redisSkipped|redisServerAvailable)$/]',
          message: 'Call it: `skipIf(redisSkipped())`. A function passed uncalled is truthy and skips the suite.',
        },
      ],
    },
  },
  {
    files: ['**/cli.ts', 'examples/**', 'bench/**', 'tools/**', '**/test/**'],
    rules: { 'no-console': 'off' },
  },
);
