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
    // Limits for a hung test, not a verdict: PGlite and the sandbox start in seconds on a quiet machine,
    // and the shop's hook took over 120 s on two cores at a load average of 40 (a CI runner shared).
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
