import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadmeBlock } from '../../../../tools/readme-blocks';
import { generatedDir } from '../../src/workspace';

/**
 * Values for the names a block's preludes only declare (`options`), read by
 * the module runBlock writes. One per worker: a test file sets them, then runs its blocks.
 */
export const given: Record<string, unknown> = {};

const here = fileURLToPath(import.meta.url);

/**
 * Runs `block`'s code as its README (or site page) has it: a module of its own whose first
 * line binds each name of `given` (what its prelude declares and a reader's
 * app has) and whose last exports `names`, declared by the block, for the
 * test to inspect. Resolves that module.
 */
export async function runBlock<T>(block: ReadmeBlock, names: readonly string[]): Promise<T> {
  const dir = join(generatedDir, 'run', block.readme, `L${block.line}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'block.ts');
  const bindings = Object.keys(given)
    .map((name) => `const ${name} = given[${JSON.stringify(name)}] as never;`)
    .join(' ');
  writeFileSync(file, `import { given } from ${JSON.stringify(here)}; ${bindings}\n${block.code}\nexport { ${names.join(', ')} };\n`);
  return (await import(file)) as T;
}
