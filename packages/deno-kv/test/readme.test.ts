import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { binary } from '../../../tests/runtimes/support/processes';

const packageDir = join(import.meta.dirname, '..');

/** Deno's own declarations of Deno.Kv and Deno.AtomicOperation must fit the package's structural ones. */
const KV_SHAPES = `import type { KvAtomic, KvLike } from '@paymount/deno-kv';
export const kvFits = (kv: Deno.Kv): KvLike => kv;
export const atomicFits = (atomic: Deno.AtomicOperation): KvAtomic => atomic;
`;

it('every TypeScript block of the README, and a real Deno.Kv as KvLike, type-check with deno check against Deno’s own types', async () => {
  const blocks = readmeBlocks('deno-kv', join(packageDir, 'README.md'));
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  // Inside the package, so that the blocks resolve @paymount/* through the workspace's node_modules as an app's would.
  const folder = await mkdtemp(join(packageDir, '.readme-check-'));
  try {
    const files = [join(folder, 'kv-shapes.ts')];
    await writeFile(files[0]!, KV_SHAPES);
    for (const block of blocks) {
      const file = join(folder, `readme-line-${block.line}.ts`);
      await writeFile(file, `${block.code}\nexport {};\n`);
      files.push(file);
    }
    const checked = await promisify(execFile)(binary('deno'), ['check', '--unstable-kv', '--no-lock', '--quiet', ...files], {
      cwd: packageDir,
      env: { ...process.env, NO_COLOR: '1' },
    }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(checked).toBe('');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 120_000);
