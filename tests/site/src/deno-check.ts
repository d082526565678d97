import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { denoCheck, paymountImports, type DenoFile } from '../../../tools/deno-check';
import type { Page } from './pages';
import { readmesDir, siteTestsDir } from './paths';
import { pageBlocks } from './project';

/**
 * Checks a Deno page's blocks (`template: deno-init`) with `deno check` against Deno's own types, as the reader's
 * `deno` checks them: each block at the path its first line names, else `L<line>.ts`, without the `deno` prelude
 * (which declares for tsc the globals Deno has built in), beside the files of tests/readmes' `context/` the blocks
 * import (`./orders.ts`, the reader's own order store), with the @paymount packages they import.
 */
export function denoCheckPage(page: Page): Promise<{ code: number | null; output: string }> {
  const blocks = pageBlocks(page);
  const files: DenoFile[] = blocks.map((block) => ({ path: block.fileName ?? `L${block.line}.${block.extension}`, text: `${block.code}\nexport {};\n` }));
  const paths = new Set(files.map((file) => file.path));
  if (paths.size !== files.length) throw new Error(`site/${page.id}.md names one file twice: deno check takes one version of each`);
  const code = blocks.map((block) => block.code).join('\n');
  for (const name of readdirSync(join(readmesDir, 'context'))) {
    if (!paths.has(name) && code.includes(`/${name.replace(/\.ts$/, '')}`)) files.push({ path: name, text: readFileSync(join(readmesDir, 'context', name), 'utf8') });
  }
  return denoCheck(siteTestsDir, paymountImports(code), files);
}
