import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';

/** Every shop page that takes a payment loads this file: its budget, gzipped. */
const BUDGET_BYTES = 3072;

const built = readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8');

it(`the built module is at most ${BUDGET_BYTES} bytes gzipped`, () => {
  expect(gzipSync(built, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_BYTES);
});

it('the package has no dependencies, and the built module imports nothing', () => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  expect(manifest['dependencies'] ?? {}).toEqual({});
  expect(manifest['peerDependencies'] ?? {}).toEqual({});
  expect(built).not.toMatch(/\bimport\s*[("'{*]|\bfrom\s*["']/);
});

it('the built module runs under a CSP without unsafe-eval and writes nothing to the console', () => {
  expect(built).not.toMatch(/\beval\s*\(|\bnew Function\b|\bFunction\s*\(|setTimeout\(\s*["'`]/);
  expect(built).not.toMatch(/\bconsole\./);
});
