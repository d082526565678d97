import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { appDir, packageDir, readmeFiles, readmePages } from './support/test-app';

/**
 * The projects of the tsconfig.json the `npm create nuxt` template (Nuxt 4's `v4`, test/nuxt-app/tsconfig.json)
 * references, as `nuxt build` generated them for the test app: the server's (server/**) and Node's (nuxt.config.ts).
 * The guide's page is a .vue file: vue-tsc checks it in the app's project (below).
 */
const PROJECTS = ['tsconfig.server.json', 'tsconfig.node.json'];
/** Two whole-program checks: on a busy machine (load 45 on 2 cores) the first took 385 s, past vitest's 180 s. */
const CHECK_LIMIT_MS = 600_000;

/** The errors of the project `config` in the files at `paths`, which must be in it. */
function errorsIn(config: string, paths: readonly string[]): string[] {
  const { config: json, error } = ts.readConfigFile(config, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(json, ts.sys, join(appDir, '.nuxt'), undefined, config);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
  const inProject = paths.filter((path) => program.getSourceFile(path) !== undefined);
  if (inProject.length === 0) return [];
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && inProject.includes(diagnostic.file.fileName))
    .map((diagnostic) => `${diagnostic.file!.fileName.slice(appDir.length + 1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

it("the README's quick start and the guide's middleware type-check in the app under the tsconfig npm create nuxt makes (its server and node projects)", () => {
  const paths = readmeFiles().map(({ fileName }) => join(appDir, fileName));
  const checked = new Set<string>();
  for (const project of PROJECTS) {
    const config = join(appDir, '.nuxt', project);
    expect(errorsIn(config, paths), project).toEqual([]);
    const { config: json } = ts.readConfigFile(config, (file) => ts.sys.readFile(file));
    for (const file of ts.parseJsonConfigFileContent(json, ts.sys, join(appDir, '.nuxt'), undefined, config).fileNames) checked.add(file);
  }
  // Every such file was in one of the projects: none went unchecked.
  expect(paths.filter((path) => !checked.has(path))).toEqual([]);
}, CHECK_LIMIT_MS);

it("the guide's page (site/guides/nuxt.md) type-checks with vue-tsc under the template's app project (.nuxt/tsconfig.app.json)", () => {
  const pages = readmePages().map(({ fileName }) => fileName);
  expect(pages).toEqual(['app/pages/orders/[id].vue']);
  const vueTsc = join(packageDir, '..', '..', 'node_modules', 'vue-tsc', 'bin', 'vue-tsc.js');
  const run = spawnSync(process.execPath, [vueTsc, '--noEmit', '--pretty', 'false', '--listFiles', '-p', join(appDir, '.nuxt', 'tsconfig.app.json')], {
    cwd: appDir,
    encoding: 'utf8',
  });
  // The other files of the app are the test's own (the conformance bridge, in plain JavaScript): only the guide's count.
  const errors = run.stdout.split('\n').filter((line) => pages.some((page) => line.startsWith(`${page}(`)));
  expect(errors).toEqual([]);
  // The page was in the project: a file left out would have no errors either.
  for (const page of pages) expect(run.stdout).toContain(join(appDir, page));
}, CHECK_LIMIT_MS);
