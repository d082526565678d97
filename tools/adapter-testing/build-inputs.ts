import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/**
 * What a framework's test app build depends on, as one digest: `files`, every file under `dirs` (the app's
 * fixture), and the built `dist` of each workspace package named (the adapter, core). A build whose inputs
 * have the same digest is reused: a framework's production build takes a minute or more.
 */
export function buildInputsDigest(files: readonly string[], dirs: readonly string[], packages: readonly string[]): string {
  const hash = createHash('sha256');
  const inputs = [...files, ...dirs.flatMap(filesUnder), ...packages.flatMap((name) => filesUnder(join(repoRoot, 'packages', name, 'dist')))];
  for (const file of inputs) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}
