import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A README is a quick start and links to the site (issue 42): what a reader needs before the site, not
 * the site again. The budgets are the issue's: a package README of at most 200 lines, and every
 * README a reader of the repository or the npm registry meets, with SECURITY.md, at most 120 KB.
 */
const root = join(import.meta.dirname, '../../..');
const MAX_PACKAGE_LINES = 200;
const MAX_TOTAL_BYTES = 120_000;

const readmesIn = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(folder, entry.name, 'README.md'))
    .filter((path) => existsSync(join(root, path)));

const packageReadmes = readmesIn('packages');
const counted = ['README.md', 'SECURITY.md', ...packageReadmes, ...readmesIn('examples')];
const text = (path: string): string => readFileSync(join(root, path), 'utf8');

describe('the READMEs are quick starts', () => {
  it.each(packageReadmes)(`%s is at most ${MAX_PACKAGE_LINES} lines`, (path) => {
    expect(text(path).split('\n').length - 1).toBeLessThanOrEqual(MAX_PACKAGE_LINES);
  });

  it(`the root README, SECURITY.md and every package's and example's README are at most ${MAX_TOTAL_BYTES} bytes together`, () => {
    const sizes = Object.fromEntries(counted.map((path) => [path, Buffer.byteLength(text(path))]));
    const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
    expect(total, `README bytes by file: ${JSON.stringify(sizes, null, 1)}`).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
  });
});
