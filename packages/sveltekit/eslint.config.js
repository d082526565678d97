// @ts-check
import rootConfig from '../../eslint.config.js';
import { fetchOnlySources } from '../../tools/eslint-fetch-only.js';

export default [
  ...rootConfig,
  // The test app put together and built by the tests, and svelte-package's scratch folder (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**', '**/.svelte-kit/**'] },
  fetchOnlySources('the handlers run on every runtime a SvelteKit adapter serves (Workers, Deno, edge functions)'),
];
