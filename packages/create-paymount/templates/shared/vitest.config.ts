import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { defineConfig } from 'vitest/config';

/**
 * The tests run on the shop's PostgreSQL server when it has one (DATABASE_URL, in the environment or
 * .env), else on PGlite in memory. Only that setting is taken from .env: the tests never reach a
 * payment service of yours.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? (existsSync('.env') ? parseEnv(readFileSync('.env', 'utf8'))['DATABASE_URL'] : undefined);

export default defineConfig({
  test: {
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
    // Limits for a hung test, not a verdict: PGlite and the sandbox start in seconds on a quiet machine, and
    // took over 120 s in the shop's beforeAll with a load average of 40 on two cores (the proofs in CI).
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
