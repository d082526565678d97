import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeBlocks, type ReadmeBlock } from '../../../tools/readme-blocks';
import { commonjsForm } from './commonjs-form';

const here = dirname(fileURLToPath(import.meta.url));
export const workspaceRoot = join(here, '..');
export const repoRoot = join(workspaceRoot, '..', '..');
/** Where the blocks are written as files (git-ignored): ES modules, as `tests/readmes` is `"type": "module"`. */
export const generatedDir = join(workspaceRoot, '.generated');
/** The same files again in a `"type": "commonjs"` scope: how a CommonJS app compiles a pasted block. */
export const commonjsDir = join(generatedDir, 'commonjs');
const contextDir = join(workspaceRoot, 'context');
const preludeDir = join(workspaceRoot, 'preludes');

/** A block written as a TypeScript file, with where its lines come from. */
export interface BlockFile extends ReadmeBlock {
  file: string;
  /** The same block in the CommonJS tree. */
  commonjsFile: string;
  /** Lines put before the block's own (its preludes): a diagnostic's line minus this is the block's line. */
  preludeLines: number;
}

/** The root README and every package's, as `{ readme, path }`. */
export function readmePaths(): { readme: string; path: string }[] {
  const packages = readdirSync(join(repoRoot, 'packages'))
    .filter((name) => existsSync(join(repoRoot, 'packages', name, 'README.md')))
    // Its README shows commands only; its code is the templates', compiled and run in scaffolded apps by its own proof.
    .filter((name) => name !== 'create-paymount')
    .sort()
    .map((name) => ({ readme: name, path: join(repoRoot, 'packages', name, 'README.md') }));
  return [{ readme: 'root', path: join(repoRoot, 'README.md') }, ...packages];
}

/**
 * The site's guide of a README's framework (`site/guides/express.md`), where the README's sections beyond
 * its quick start now live: a test reads a section the README no longer has from it (readmeBlock).
 */
export function guidePath(readme: string): string {
  return join(repoRoot, 'site', 'guides', `${readme}.md`);
}

/** Where a guide's blocks are written (`site/guides/express`), apart from the READMEs' so the README compile leaves them to tests/site. */
const guideKey = (readme: string): string => `site/guides/${readme}`;

/** `export * from './x.js'`: with the extension `module: nodenext` needs, which bundlers also resolve. */
function reexport(fromDir: string, target: string): string {
  const path = relative(fromDir, target).replace(/\\/g, '/').replace(/\.ts$/, '.js');
  return `export * from '${path.startsWith('.') ? path : `./${path}`}';\n`;
}

/**
 * Writes every block of every README into its own directory under `root`:
 * `<readme>/L<line>/<file name or block.ts>`, its preludes' text first. Next to
 * it go one-line modules re-exporting what the README's code imports but does
 * not show: the harness's sample app modules (`./orders.js`: "your own order
 * store") and the README's other named blocks (`./app.module.js`).
 */
function writeBlocks(
  root: string,
  readmes: { readme: string; blocks: ReadmeBlock[] }[],
  form: (code: string) => string = (code) => code,
): { block: ReadmeBlock; file: string; preludeLines: number }[] {
  const contextModules = readdirSync(contextDir).filter((name) => name.endsWith('.ts'));
  const written: { block: ReadmeBlock; file: string; preludeLines: number }[] = [];
  for (const { readme, blocks: readmeBlocksOf } of readmes) {
    const blocks = readmeBlocksOf.map((block) => {
      const dir = join(root, readme, `L${block.line}`);
      return { block, dir, file: join(dir, block.fileName ?? 'block.ts') };
    });
    for (const { block, dir, file } of blocks) {
      mkdirSync(dirname(file), { recursive: true });
      const prelude = block.preludes.map((name) => readFileSync(join(preludeDir, `${name}.ts`), 'utf8').replace(/\n?$/, '\n')).join('');
      // `export {}` makes every block a module: its own scope, top-level await allowed (in ES modules).
      writeFileSync(file, `${form(`${prelude}${block.code}`)}\nexport {};\n`);
      for (const name of contextModules.filter((name) => name !== block.fileName)) {
        writeFileSync(join(dir, name), reexport(dir, join(contextDir, name)));
      }
      // A README's own file of that name wins over the harness's. Of two versions of one file (the
      // Nest README's quick start's app.module.ts and its queued one), the last above the block: the
      // file as the reader has it there (the first below it, when none is above).
      const files = new Map<string, (typeof blocks)[number]>();
      for (const other of blocks) {
        const name = other.block.fileName;
        if (name && name !== block.fileName && (!files.has(name) || other.block.line < block.line)) files.set(name, other);
      }
      for (const [name, other] of files) {
        const target = join(dir, name);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, reexport(dirname(target), other.file));
      }
      written.push({ block, file, preludeLines: prelude === '' ? 0 : prelude.split('\n').length - 1 });
    }
  }
  return written;
}

/**
 * Writes the blocks twice: under `.generated` (ES modules; what the quick-start
 * tests import) and under `.generated/commonjs` (a `"type": "commonjs"` scope).
 */
export function writeReadmeWorkspace(): BlockFile[] {
  rmSync(generatedDir, { recursive: true, force: true });
  const readmes = readmePaths().map(({ readme, path }) => ({ readme, blocks: readmeBlocks(readme, path) }));
  const esm = writeBlocks(generatedDir, readmes);
  const commonjs = writeBlocks(commonjsDir, readmes, commonjsForm);
  writeFileSync(join(commonjsDir, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  const files: BlockFile[] = esm.map(({ block, file, preludeLines }, i) => ({ ...block, file, commonjsFile: commonjs[i]!.file, preludeLines }));
  // Nearest to the blocks, so vite transforms them (decorators) as the compile test checks them.
  writeFileSync(join(generatedDir, 'tsconfig.json'), JSON.stringify({ extends: '../blocks.tsconfig.json', include: ['**/*.ts'] }));
  writeFileSync(join(generatedDir, 'blocks.json'), JSON.stringify(files, null, 2));
  // The guides' blocks, run by the tests of the README sections that moved there; compiled by tests/site.
  const guides = readmePaths()
    .filter(({ readme }) => existsSync(guidePath(readme)))
    .map(({ readme }) => ({ readme: guideKey(readme), blocks: readmeBlocks(guideKey(readme), guidePath(readme)) }));
  const guideFiles = writeBlocks(generatedDir, guides).map(({ block, file, preludeLines }) => ({ ...block, file, commonjsFile: file, preludeLines }));
  writeFileSync(join(generatedDir, 'guide-blocks.json'), JSON.stringify(guideFiles, null, 2));
  return files;
}

/** The blocks `writeReadmeWorkspace` wrote (run by the global setup before any test file). */
export function writtenBlocks(): BlockFile[] {
  return JSON.parse(readFileSync(join(generatedDir, 'blocks.json'), 'utf8')) as BlockFile[];
}

function writtenGuideBlocks(): BlockFile[] {
  return JSON.parse(readFileSync(join(generatedDir, 'guide-blocks.json'), 'utf8')) as BlockFile[];
}

/**
 * The one block of `readme` under `section` that `pick` selects (`which` says how, in the error
 * when not exactly one does).
 */
export function readmeBlock(readme: string, section: string, pick: (block: BlockFile) => boolean = () => true, which = ''): BlockFile {
  const inReadme = writtenBlocks().filter((block) => block.readme === readme && block.section === section);
  // A section the README no longer has moved to its framework's guide, with its blocks as they were.
  const candidates = inReadme.length > 0 ? inReadme : writtenGuideBlocks().filter((block) => block.readme === guideKey(readme) && block.section === section);
  const found = candidates.filter(pick);
  if (found.length !== 1) throw new Error(`${readme} README and guide: ${found.length} blocks under "## ${section}"${which}, expected one`);
  return found[0]!;
}

/** The file of the one block of `readme` under `section` (named `fileName` when several are). */
export function blockFile(readme: string, section: string, fileName?: string): string {
  return readmeBlock(readme, section, (block) => fileName === undefined || block.fileName === fileName, fileName ? ` named ${fileName}` : '').file;
}
