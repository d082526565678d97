import { join } from 'node:path';
import ts from 'typescript';
import { generatedDir, type BlockFile } from './workspace';

/** The settings of `blocks.tsconfig.json`, through the tsconfig written next to the blocks. */
function blockCompilerOptions(): ts.CompilerOptions {
  const path = join(generatedDir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, generatedDir, undefined, path).options;
}

/** Compiles every block in one program; the errors of each, as `<readme> README.md:<line>: message`. */
export function compileBlocks(blocks: BlockFile[]): Map<BlockFile, string[]> {
  const program = ts.createProgram(
    blocks.map((block) => block.file),
    blockCompilerOptions(),
  );
  const errors = new Map<BlockFile, string[]>(blocks.map((block) => [block, []]));
  for (const block of blocks) {
    const source = program.getSourceFile(block.file);
    if (!source) throw new Error(`${block.file} was not compiled`);
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const at = diagnostic.start === undefined ? undefined : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      const line = at === undefined ? block.line : block.line + at - block.preludeLines;
      errors.get(block)?.push(`${block.readme} README.md:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
  }
  return errors;
}
