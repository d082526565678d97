import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const siteTestsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(siteTestsDir, '..', '..');
export const siteDir = join(repoRoot, 'site');
export const readmesDir = join(repoRoot, 'tests', 'readmes');
/** Where each page's blocks are written as a project of its template (git-ignored). */
export const generatedDir = join(siteTestsDir, '.generated');
