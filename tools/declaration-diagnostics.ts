import { fileURLToPath } from 'node:url';
import type ts from 'typescript';

const packagesDir = fileURLToPath(new URL('../packages/', import.meta.url));

/**
 * What a program of written-out code blocks finds wrong outside the blocks themselves: its options,
 * its globals, and paymount's own declarations, which every block compiles against, so an error there
 * is paymount's and not the block's.
 */
export function optionsAndDeclarationDiagnostics(program: ts.Program): ts.Diagnostic[] {
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program
      .getSourceFiles()
      .filter((source) => source.isDeclarationFile && source.fileName.startsWith(packagesDir))
      .flatMap((source) => [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]),
  ];
}
