import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Limits for a hung test, not a verdict: PGlite and the sandbox start in seconds on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
