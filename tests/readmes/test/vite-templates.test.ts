import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { tsxBlocks } from '../../../tools/browser-testing/tsx-blocks';
import { generatedDir, repoRoot, workspaceRoot } from '../src/workspace';

/** The READMEs of the browser packages and the Vite template their readers start from (templates/README.md). */
const PROJECTS = [
  { readme: 'browser', template: 'vite-vanilla-ts', tsconfig: 'tsconfig.json' },
  { readme: 'react', template: 'vite-react-ts', tsconfig: 'tsconfig.app.json' },
] as const;

/**
 * Writes the README's blocks into `src/` of a project with the template's
 * tsconfig and compiles it; resolves each error as `<readme> README.md:<line>: message`.
 */
function compileInTemplate(project: (typeof PROJECTS)[number]): { files: number; errors: string[] } {
  const readmePath = join(repoRoot, 'packages', project.readme, 'README.md');
  const dir = join(generatedDir, 'vite', project.readme);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  cpSync(join(workspaceRoot, 'templates', project.template, project.tsconfig), join(dir, project.tsconfig));
  const blocks = [
    ...readmeBlocks(project.readme, readmePath).map((block) => ({ line: block.line, code: block.code, file: block.fileName ?? `L${block.line}.ts` })),
    ...tsxBlocks(readmePath).map((block) => ({ line: block.line, code: block.code, file: block.fileName ?? `L${block.line}.tsx` })),
  ];
  const lineOf = new Map<string, number>();
  for (const block of blocks) {
    const file = join(dir, 'src', block.file);
    writeFileSync(file, `${block.code}\n`);
    lineOf.set(file, block.line);
  }
  const configPath = join(dir, project.tsconfig);
  const { config } = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir, undefined, configPath);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const errors = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const first = diagnostic.file && lineOf.get(diagnostic.file.fileName);
    if (first === undefined || diagnostic.start === undefined) return `${diagnostic.file?.fileName ?? '(options)'}: ${message}`;
    return `${project.readme} README.md:${first + diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start).line}: ${message}`;
  });
  return { files: parsed.fileNames.length, errors };
}

describe.each(PROJECTS)('the $readme README compiles in a project of create-vite 9.3.0 $template ($tsconfig), against the built packages', (project) => {
  it('every block, with no error', () => {
    const { files, errors } = compileInTemplate(project);
    expect(files).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
