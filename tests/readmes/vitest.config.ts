import { defineConfig } from 'vitest/config';
import { TEST_LIMITS } from '../../tools/vitest.shared';

// No alias to the packages' sources (unlike tools/vitest.shared): READMEs run against the built packages, as a user's app would.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    ...TEST_LIMITS,
  },
});
