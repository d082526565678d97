import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { generatedDir, workspaceRoot, writtenBlocks } from '../src/workspace';

/** Where the Astro README's named files are laid out as an Astro project's (git-ignored, under .generated). */
const projectDir = join(generatedDir, 'astro-template');

/**
 * The tsconfig of Astro 5's `minimal` template (`npm create astro@latest -- --template minimal`
 * with astro 5.18): `astro/tsconfigs/strict` (bundler resolution, `.ts` imports allowed,
 * `skipLibCheck`), over the project's files and the types `astro sync` writes to `.astro/`.
 */
const TEMPLATE_TSCONFIG = { extends: 'astro/tsconfigs/strict', include: ['.astro/types.d.ts', '**/*'], exclude: ['dist'] };

it("compiles the Astro README's files, each at its path, under the tsconfig of Astro's own project template", () => {
  rmSync(projectDir, { recursive: true, force: true });
  const files = writtenBlocks().filter((block) => block.readme === 'astro' && block.fileName !== undefined);
  expect(files.map((block) => block.fileName)).toContain('src/pages/payments/[...paymount].ts');
  for (const block of files) {
    const target = join(projectDir, block.fileName!);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, block.code);
  }
  // "Your own order store" the README imports (`./orders.js`), and what `astro sync` generates: Astro's client types.
  writeFileSync(join(projectDir, 'orders.ts'), `export * from '${relative(projectDir, join(workspaceRoot, 'context', 'orders.js'))}';\n`);
  mkdirSync(join(projectDir, '.astro'), { recursive: true });
  writeFileSync(join(projectDir, '.astro', 'types.d.ts'), '/// <reference types="astro/client" />\n');
  writeFileSync(join(projectDir, 'tsconfig.json'), JSON.stringify(TEMPLATE_TSCONFIG, null, 2));

  const configPath = join(projectDir, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, projectDir, undefined, configPath);
  expect(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  expect(parsed.fileNames.filter((file) => file.includes('/src/pages/'))).toHaveLength(1);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? relative(projectDir, d.file.fileName) : '(options)'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(errors).toEqual([]);
  expect(parsed.options.strict).toBe(true);
});
