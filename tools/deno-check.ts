import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { binary, run } from './child-processes';

const PACKAGES_DIR = join(import.meta.dirname, '..', 'packages');

/** A file of the checked project: its path there and its text. */
export interface DenoFile {
  path: string;
  text: string;
}

/** The `@paymount/<name>` packages the code imports, by folder name. */
export function paymountImports(code: string): string[] {
  return [...new Set([...code.matchAll(/from '@paymount\/([\w-]+)/g)].map((found) => found[1]!))].sort();
}

/**
 * Type-checks `files` with `deno check` against Deno's own types (the `deno` of the workspace's node_modules), in a
 * folder made under `parentDir` and removed after. The folder holds copies of the built @paymount `packages` in a
 * node_modules of its own, as `deno add npm:…` would install them: through the workspace's links Deno follows each
 * package to its real path, outside any node_modules, and then reads it as local code, where a declaration's
 * `./chunk.js` import no longer finds its `chunk.d.ts` (Deno does that for a file of an npm package). Their own
 * dependencies (zod, hono) resolve from the workspace's node_modules above `parentDir`. Resolves deno's output
 * (empty when every file checks) and its exit status.
 */
export async function denoCheck(parentDir: string, packages: readonly string[], files: readonly DenoFile[]): Promise<{ code: number | null; output: string }> {
  const folder = await mkdtemp(join(parentDir, '.deno-check-'));
  try {
    for (const name of new Set(['core', ...packages])) {
      const target = join(folder, 'node_modules', '@paymount', name);
      await cp(join(PACKAGES_DIR, name, 'package.json'), join(target, 'package.json'));
      await cp(join(PACKAGES_DIR, name, 'dist'), join(target, 'dist'), { recursive: true });
    }
    await writeFile(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await writeFile(join(folder, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual', unstable: ['kv'] }));
    for (const file of files) {
      await mkdir(dirname(join(folder, file.path)), { recursive: true });
      await writeFile(join(folder, file.path), file.text);
    }
    const checked = await run(binary('deno'), ['check', '--no-lock', '--quiet', ...files.map((file) => file.path)], { cwd: folder, timeoutMs: 120_000 });
    return { code: checked.code, output: `${checked.stdout}${checked.stderr}` };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
