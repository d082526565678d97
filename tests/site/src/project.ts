import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { tsxBlocks } from '../../../tools/browser-testing/tsx-blocks';
import { optionsAndDeclarationDiagnostics } from '../../../tools/declaration-diagnostics';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { frameworkPrograms, generateProject, writeTemplateFiles } from './framework-projects';
import { tsconfigProgram } from './program';
import type { Page } from './pages';
import { generatedDir, readmesDir } from './paths';
import { TEMPLATES, type Template } from './templates';
import { writeWranglerTypes } from './wrangler-types';

/** One ```ts or ```tsx block of a page, written as a file of its page's project. */
export interface PageBlock {
  /** 1-based line of the block's first code line in the page. */
  line: number;
  section: string;
  code: string;
  fileName: string | undefined;
  /** Its path in the project. */
  file: string;
  /** Lines of preludes put before the block's own. */
  preludeLines: number;
}

export function templateOf(page: Page): Template {
  const name = page.frontmatter.template ?? 'tsc-init';
  const template = TEMPLATES[name];
  if (!template) throw new Error(`site/${page.id}.md names template "${name}", which tests/site does not know (src/templates.ts)`);
  return template;
}

/** A ```ts or ```tsx block as the page has it. */
export interface SourceBlock {
  line: number;
  section: string;
  code: string;
  fileName: string | undefined;
  preludes: string[];
  extension: 'ts' | 'tsx';
}

/** The page's TypeScript blocks, in page order (```tsx blocks take no prelude and sit under no section). */
export function pageBlocks(page: Page): SourceBlock[] {
  const typed = readmeBlocks(page.id, page.path).map(({ line, section, code, fileName, preludes }) => ({ line, section, code, fileName, preludes, extension: 'ts' as const }));
  const tsx = tsxBlocks(page.path).map(({ line, code, fileName }) => ({ line, section: '', code, fileName, preludes: [], extension: 'tsx' as const }));
  return [...typed, ...tsx].sort((a, b) => a.line - b.line);
}

/**
 * Writes the page's blocks as a project made from its template: the template's tsconfig (extended), its package
 * type and files; each block at the path its first line names (`// app.module.ts`), else `L<line>.ts`, at the project's root, so
 * blocks import each other as a reader's files do; tests/readmes' preludes before a block that names them, and
 * the files of its `context/` they import (the reader's own order store, `./orders.js`) unless the page writes them.
 */
export function writePageProject(page: Page): { dir: string; blocks: PageBlock[] } {
  const template = templateOf(page);
  const dir = join(generatedDir, page.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The settings the page tells its reader to change in the template's tsconfig (`compilerOptions:` in its frontmatter).
  const changed = JSON.parse(page.frontmatter.compilerOptions ?? '{}') as Record<string, unknown>;
  // The template's own files by name: `**/*` leaves out dot-folders such as `.astro/`.
  const include = ['**/*', ...Object.keys(template.files ?? {})];
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: relative(dir, template.tsconfig), compilerOptions: changed, include }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: template.packageType }));
  // A framework's template: its own files, tsconfig.json and package.json among them, in place of those two.
  if (template.framework) writeTemplateFiles(template.framework, dir);
  const root = sourceRoot(dir, template);
  for (const [path, text] of Object.entries(template.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const used = new Set<string>();
  const written: string[] = [];
  const blocks = pageBlocks(page).map(({ preludes, extension, ...block }) => {
    // Of two versions of one file, the first is the file the others import; a later one stands alone.
    const own = block.fileName ?? `L${block.line}.${extension}`;
    const file = used.has(own) ? join(`L${block.line}`, own) : own;
    used.add(file);
    const prelude = preludes.map((name) => readFileSync(join(readmesDir, 'preludes', `${name}.ts`), 'utf8').replace(/\n?$/, '\n')).join('');
    mkdirSync(dirname(join(root, file)), { recursive: true });
    written.push(`${prelude}${block.code}`);
    // `export {}` makes every block a module: its own scope.
    writeFileSync(join(root, file), `${prelude}${block.code}\nexport {};\n`);
    return { ...block, file, preludeLines: prelude === '' ? 0 : prelude.split('\n').length - 1 };
  });
  // Only the context the page imports: `orders.module.ts` is a Nest module, which other templates' settings refuse.
  const code = written.join('\n');
  for (const name of readdirSync(join(readmesDir, 'context'))) {
    if (!used.has(name) && code.includes(`/${name.replace(/\.ts$/, '')}`)) copyFileSync(join(readmesDir, 'context', name), join(root, name));
  }
  // A later version of a file sits in a folder of its own: there, every other file of the project is re-exported
  // at its path, so the version imports them as the reader's file does.
  const others = [...readdirSync(root, { recursive: true, encoding: 'utf8' })].filter((path) => /\.tsx?$/.test(path) && !/^L\d+[./]/.test(path) && !path.endsWith('.d.ts'));
  for (const block of blocks.filter((each) => /^L\d+\//.test(each.file))) {
    const versionDir = join(root, block.file.split('/')[0]!);
    for (const path of others.filter((path) => !existsSync(join(versionDir, path)))) {
      const target = join(versionDir, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, `export * from '${relative(dirname(target), join(root, path)).replace(/\.tsx?$/, '.js')}';\n`);
    }
  }
  if (page.frontmatter.template === 'create-cloudflare') writeWranglerTypes(page, dir);
  return { dir, blocks };
}

/** Where a page's blocks sit in its project `dir`: the folder the template keeps its code in (SvelteKit's `src`). */
export function sourceRoot(dir: string, template: Template): string {
  return join(dir, template.framework?.sourceDir ?? '');
}

export interface CompiledPage {
  /** The errors of each block, as `site/<page>.md:<line>: message`. */
  byBlock: Map<PageBlock, string[]>;
  /** Errors of the options, of the program as a whole and in paymount's published declarations. */
  other: string[];
}

/** Compiles the page's project under its template's settings. */
export function compilePage(page: Page): CompiledPage & { blocks: PageBlock[]; dir: string } {
  const { dir, blocks } = writePageProject(page);
  const template = templateOf(page);
  // `svelte-kit sync`, `nuxt prepare`: what the template's tsconfig extends, generated as its reader's first run does.
  if (template.framework) generateProject(template.framework, page.path, dir);
  const programs = template.framework ? frameworkPrograms(template.framework, dir) : [tsconfigProgram(join(dir, 'tsconfig.json'))];
  const root = sourceRoot(dir, template);
  const message = (diagnostic: ts.Diagnostic): string => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const byBlock = new Map<PageBlock, string[]>();
  for (const block of blocks) {
    const program = programs.map((each) => each.program).find((each) => each.getSourceFile(join(root, block.file)) !== undefined);
    const source = program?.getSourceFile(join(root, block.file));
    if (!program || !source) throw new Error(`${block.file} of site/${page.id}.md was not compiled`);
    byBlock.set(
      block,
      ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
        const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line - block.preludeLines;
        return `site/${page.id}.md:${block.line + at}: ${message(diagnostic)}`;
      }),
    );
  }
  const other = programs.flatMap(({ program, errors }) => [
    ...errors,
    ...optionsAndDeclarationDiagnostics(program),
  ]).map((diagnostic) => `${diagnostic.file?.fileName ?? '(options)'}: ${message(diagnostic)}`);
  return { byBlock, other, blocks, dir };
}
