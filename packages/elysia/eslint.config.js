// @ts-check
import rootConfig from '../../eslint.config.js';
import { fetchOnlySources } from '../../tools/eslint-fetch-only.js';

export default [
  ...rootConfig,
  // The compiled test app (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**'] },
  fetchOnlySources('the plugin runs on Bun and every runtime Elysia serves'),
];
