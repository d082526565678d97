import { join } from 'node:path';
import { expect, it } from 'vitest';
import { denoCheck } from '../../../tools/deno-check';
import { readmeBlocks } from '../../../tools/readme-blocks';

const packageDir = join(import.meta.dirname, '..');

/** Deno's own declarations of Deno.Kv and Deno.AtomicOperation must fit the package's structural ones. */
const KV_SHAPES = `import type { KvAtomic, KvLike } from '@paymount/deno-kv';
export const kvFits = (kv: Deno.Kv): KvLike => kv;
export const atomicFits = (atomic: Deno.AtomicOperation): KvAtomic => atomic;
`;

it('every TypeScript block of the README and of the stores page’s Deno KV section, and a real Deno.Kv as KvLike, type-check with deno check against Deno’s own types', async () => {
  const readme = readmeBlocks('deno-kv', join(packageDir, 'README.md'));
  // The blocks that moved from the README to the site: under the stores page's `## Deno KV`, each taking the `deno` prelude.
  const site = readmeBlocks('stores', join(packageDir, '..', '..', 'site', 'concepts', 'stores.md')).filter((block) => block.preludes.includes('deno'));
  expect(readme.length).toBeGreaterThanOrEqual(1);
  expect(site.length).toBeGreaterThanOrEqual(2);
  const files = [
    { path: 'kv-shapes.ts', text: KV_SHAPES },
    ...readme.map((block) => ({ path: `readme-line-${block.line}.ts`, text: `${block.code}\nexport {};\n` })),
    ...site.map((block) => ({ path: `stores-line-${block.line}.ts`, text: `${block.code}\nexport {};\n` })),
  ];
  const checked = await denoCheck(packageDir, ['deno-kv'], files);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
}, 180_000);
