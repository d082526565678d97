import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { svelteBlocks, vueBlocks, type TsxBlock } from '../../../tools/browser-testing/tsx-blocks';
import { readmesDir, repoRoot } from './paths';
import { tsconfigProgram } from './program';

/**
 * A template whose tsconfig extends what the framework's own generator writes into the project
 * (`svelte-kit sync`'s `.svelte-kit/tsconfig.json`, `nuxt prepare`'s `.nuxt/tsconfig.*.json`): the page's project is
 * that template's files, copied as they are, with the generator run in it before the blocks are compiled.
 */
export interface FrameworkProject {
  /** The template's files by path in the project, each the file the package's test app keeps of it. */
  templateFiles: Record<string, string>;
  /** Where the template keeps the code the blocks name their paths from (`src` for SvelteKit). */
  sourceDir: string;
  /** Files of tests/readmes' `context/` every page of the template has, by path in the project (Nitro's `server/utils`). */
  context?: Record<string, string>;
  /** Runs the framework's generator in the project `dir`, throwing with its output if it fails. */
  generate(dir: string): void;
  /** The tsconfigs of the project its reader's tsc checks, by path in the project: every block is in one of them. */
  tsconfigs: string[];
  /** The page's component blocks (```svelte, ```vue), each named by its first line, and the framework's checker of them. */
  components: {
    blocks(pagePath: string): TsxBlock[];
    /** The checker's complaints about the project `dir`'s `files` (paths in the project), or about their being left out. */
    check(dir: string, files: string[]): string[];
  };
}

const node = (name: string, ...path: string[]): string => join(repoRoot, 'node_modules', name, ...path);

/** Runs a generator's JavaScript entry with Node in `dir`: the workspace's own install of the framework, as its test app runs it. */
function runGenerator(entry: string, args: string[], dir: string, env: Record<string, string> = {}): void {
  try {
    execFileSync(process.execPath, [entry, ...args], { cwd: dir, stdio: 'pipe', timeout: 180_000, env: { ...process.env, NO_COLOR: '1', ...env } });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer | string; stderr?: Buffer | string };
    throw new Error(`${entry} ${args.join(' ')} failed in ${dir}: ${String(stdout)}${String(stderr)}`);
  }
}

/** svelte-check under the project's tsconfig, as the template's `npm run check` runs it: its errors and warnings. */
function svelteCheck(dir: string): string[] {
  const run = spawnSync(process.execPath, [node('svelte-check', 'bin', 'svelte-check'), '--tsconfig', './tsconfig.json', '--fail-on-warnings', '--output', 'machine'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (!/ COMPLETED /.test(run.stdout)) return [`svelte-check did not complete (${run.status ?? run.signal}): ${run.stdout}${run.stderr}`];
  return run.stdout.split('\n').filter((line) => / (ERROR|WARNING) /.test(line));
}

/** vue-tsc under Nuxt's app project (`.nuxt/tsconfig.app.json`), as packages/nuxt's test runs it: the errors in `files`. */
function vueTsc(dir: string, files: string[]): string[] {
  const run = spawnSync(process.execPath, [node('vue-tsc', 'bin', 'vue-tsc.js'), '--noEmit', '--pretty', 'false', '--listFiles', '-p', join(dir, '.nuxt', 'tsconfig.app.json')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 240_000,
  });
  // A file left out of the project would have no errors either.
  const missing = files.filter((file) => !run.stdout.includes(join(dir, file))).map((file) => `${file} is not in .nuxt/tsconfig.app.json`);
  return [...missing, ...run.stdout.split('\n').filter((line) => files.some((file) => line.startsWith(`${file}(`)))];
}

const svelteKitApp = join(repoRoot, 'packages', 'sveltekit', 'test', 'sveltekit-app');
const nuxtApp = join(repoRoot, 'packages', 'nuxt', 'test', 'nuxt-app');

/**
 * `npx sv create --template minimal --types ts` (sv 0.17.1), as packages/sveltekit's test app keeps it: its
 * tsconfig.json extends `.svelte-kit/tsconfig.json`, which `svelte-kit sync` writes from the kit config in
 * vite.config.ts (the test app's has adapter-node, which the guide installs, in place of adapter-auto).
 */
export const SVELTEKIT: FrameworkProject = {
  templateFiles: Object.fromEntries(['tsconfig.json', 'package.json', 'vite.config.ts', 'src/app.d.ts', 'src/app.html'].map((path) => [path, join(svelteKitApp, path)])),
  sourceDir: 'src',
  generate: (dir) => runGenerator(node('@sveltejs', 'kit', 'svelte-kit.js'), ['sync'], dir),
  tsconfigs: ['tsconfig.json'],
  components: { blocks: svelteBlocks, check: svelteCheck },
};

/**
 * `npm create nuxt` (Nuxt 4's `v4` template, Nuxt 4.3.1), as packages/nuxt's test app keeps it: a tsconfig.json
 * referencing `.nuxt/tsconfig.{app,server,shared,node}.json`, which `nuxt prepare` writes. Nitro imports the
 * reader's `server/utils` for them: the order store sits there.
 */
export const NUXT: FrameworkProject = {
  templateFiles: Object.fromEntries(['tsconfig.json', 'package.json', 'nuxt.config.ts'].map((path) => [path, join(nuxtApp, path)])),
  sourceDir: '',
  context: { 'server/utils/orders.ts': 'orders.ts' },
  generate: (dir) => runGenerator(node('nuxt', 'bin', 'nuxt.mjs'), ['prepare', dir], dir, { CI: '1', NUXT_TELEMETRY_DISABLED: '1' }),
  // The server's and Node's projects: the blocks are server routes, middleware and nuxt.config.ts (pages: vue-tsc).
  tsconfigs: ['.nuxt/tsconfig.server.json', '.nuxt/tsconfig.node.json'],
  components: { blocks: vueBlocks, check: vueTsc },
};

/** Copies the template's files into `dir` (the blocks, written after, replace any of them they name). */
export function writeTemplateFiles(project: FrameworkProject, dir: string): void {
  const files = { ...project.templateFiles, ...Object.fromEntries(Object.entries(project.context ?? {}).map(([path, name]) => [path, join(readmesDir, 'context', name)])) };
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(source, join(dir, path));
  }
}

/** The page's component blocks, by path in the project. */
function componentFiles(project: FrameworkProject, pagePath: string): { path: string; block: TsxBlock }[] {
  return project.components.blocks(pagePath).map((block) => {
    if (block.fileName === undefined) throw new Error(`${pagePath}:${block.line}: a component block names its file by its first line`);
    return { path: join(project.sourceDir, block.fileName), block };
  });
}

/** Writes the page's component blocks into the project `dir` (where the generator sees them: routes' `$types`), then runs the generator. */
export function generateProject(project: FrameworkProject, pagePath: string, dir: string): void {
  for (const { path, block } of componentFiles(project, pagePath)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${block.code}\n`);
  }
  project.generate(dir);
}

/** The framework checker's complaints about the page's component blocks, once compilePage has written and generated its project. */
export function checkComponents(project: FrameworkProject, pagePath: string, dir: string): string[] {
  const files = componentFiles(project, pagePath).map(({ path }) => path);
  return files.length === 0 ? [] : project.components.check(dir, files);
}

/** The project's programs, one per tsconfig its reader's tsc checks. */
export function frameworkPrograms(project: FrameworkProject, dir: string): ReturnType<typeof tsconfigProgram>[] {
  return project.tsconfigs.map((name) => tsconfigProgram(join(dir, name)));
}
