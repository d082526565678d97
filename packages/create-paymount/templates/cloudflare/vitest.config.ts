import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Limits for a hung test, not a verdict: wrangler builds the Worker and workerd starts in seconds, slower on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
