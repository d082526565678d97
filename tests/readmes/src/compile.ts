import ts from 'typescript';
import type { BlockFile } from './workspace';

/**
 * A merchant's strict settings, not the repository's: `@paymount/*` resolve
 * through node_modules to the built packages, Nest's legacy decorators on.
 */
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  esModuleInterop: true,
  skipLibCheck: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  noEmit: true,
};

/** Compiles every block in one program; the errors of each, as `README.md:<line>: message`. */
export function compileBlocks(blocks: BlockFile[]): Map<BlockFile, string[]> {
  const program = ts.createProgram(
    blocks.map((block) => block.file),
    options,
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
