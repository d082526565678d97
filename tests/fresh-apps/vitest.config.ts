import { defineConfig } from 'vitest/config';

// No alias to the packages' sources: the apps install the packed packages, as a reader's would.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // One app process at a time: two cores are shared.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
