import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `npm pack` of the workspace packages `names` (from their builds) into `destination`, in one npm run: each tarball's path by package name. */
export function packWorkspaces(names: readonly string[], destination: string): Record<string, string> {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination, ...names.flatMap((name) => ['-w', name])], {
    cwd: REPO_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const packed = JSON.parse(output) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map(({ name, filename }) => [name, join(destination, filename)]));
}
