import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileBlocks, type Setting } from '../src/compile';
import { generatedDir, workspaceRoot, writtenBlocks } from '../src/workspace';

/** The compiler options of React Router's default template (react-router-template.tsconfig.json), and nothing of blocks.tsconfig.json's. */
function templateSetting(): Setting {
  const path = join(workspaceRoot, 'react-router-template.tsconfig.json');
  const { config, error } = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const template = ts.parseJsonConfigFileContent(config, ts.sys, generatedDir, undefined, path).options;
  // compileBlocks lays a setting's options over blocks.tsconfig.json's: each of those the template does not set is unset.
  const base = ts.parseJsonConfigFileContent(ts.readConfigFile(join(generatedDir, 'tsconfig.json'), (file) => ts.sys.readFile(file)).config, ts.sys, generatedDir).options;
  const unset = Object.fromEntries(Object.keys(base).map((key) => [key, undefined]));
  return { name: 'React Router default template', file: (block) => block.file, options: { ...unset, ...template }, readmes: 'all' };
}

const blocks = writtenBlocks().filter((block) => block.readme === 'react-router');

describe("the React Router README's blocks compile under the default template's tsconfig", () => {
  const compiled = compileBlocks(blocks, templateSetting());

  it('finds the quick start: three files', () => {
    expect(blocks.filter((block) => block.section === 'Quick start' && block.fileName !== undefined)).toHaveLength(3);
  });

  it("with no error in paymount's declarations", () => {
    expect(compiled.library).toEqual([]);
  });

  it.each(blocks.map((block) => [`react-router README.md:${block.line}`, block] as const))('%s', (_block, block) => {
    expect(compiled.byBlock.get(block)).toEqual([]);
  });
});
