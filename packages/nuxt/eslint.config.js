// @ts-check
import rootConfig from '../../eslint.config.js';

export default [
  ...rootConfig,
  // The test app put together and built by the tests (the root config's ignore is relative to the root).
  { ignores: ['.test-app/**', '.test-app-bun/**', '.test-app-deno/**', '.test-app-cloudflare/**'] },
];
