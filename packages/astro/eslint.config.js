// @ts-check
import rootConfig from '../../eslint.config.js';
import { fetchOnlySources } from '../../tools/eslint-fetch-only.js';

export default [
  ...rootConfig,
  // The test app put together and built by the tests (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**'] },
  fetchOnlySources('the endpoints also run on the edge adapters (Deno, Cloudflare, Netlify, Vercel)'),
];
