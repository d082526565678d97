import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { binary, run } from '../../../tools/child-processes';
import { readmeBlocks } from '../../../tools/readme-blocks';

const packageDir = join(import.meta.dirname, '..');
const packagesDir = join(packageDir, '..');

/** Deno's own declarations of Deno.Kv and Deno.AtomicOperation must fit the package's structural ones. */
const KV_SHAPES = `import type { KvAtomic, KvLike } from '@paymount/deno-kv';
export const kvFits = (kv: Deno.Kv): KvLike => kv;
export const atomicFits = (atomic: Deno.AtomicOperation): KvAtomic => atomic;
`;

/**
 * A folder under the package holding copies of the built @paymount packages
 * the blocks import, in a node_modules of its own, as `deno add npm:…` would
 * install them. Through the workspace's links Deno follows each package to its
 * real path, outside any node_modules, and then reads it as local code: a
 * declaration's `./chunk.js` import no longer finds its `chunk.d.ts`, which
 * Deno does for a file of an npm package. The packages' own dependencies
 * (zod) still resolve from the workspace's node_modules above the folder.
 */
async function appFolder(): Promise<string> {
  const folder = await mkdtemp(join(packageDir, '.readme-check-'));
  for (const name of ['core', 'deno-kv']) {
    const target = join(folder, 'node_modules', '@paymount', name);
    await cp(join(packagesDir, name, 'package.json'), join(target, 'package.json'));
    await cp(join(packagesDir, name, 'dist'), join(target, 'dist'), { recursive: true });
  }
  await writeFile(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(folder, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual', unstable: ['kv'] }));
  return folder;
}

it('every TypeScript block of the README, and a real Deno.Kv as KvLike, type-check with deno check against Deno’s own types', async () => {
  const blocks = readmeBlocks('deno-kv', join(packageDir, 'README.md'));
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  const folder = await appFolder();
  try {
    const files = ['kv-shapes.ts'];
    await writeFile(join(folder, files[0]!), KV_SHAPES);
    for (const block of blocks) {
      const file = `readme-line-${block.line}.ts`;
      await writeFile(join(folder, file), `${block.code}\nexport {};\n`);
      files.push(file);
    }
    const checked = await run(binary('deno'), ['check', '--no-lock', '--quiet', ...files], { cwd: folder, timeoutMs: 120_000 });
    expect(`${checked.stdout}${checked.stderr}`).toBe('');
    expect(checked.code).toBe(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 180_000);
