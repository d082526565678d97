import ts from 'typescript';

/**
 * The type errors of `files` (and of what they import) under the compiler
 * options of the tsconfig at `tsconfigPath` (a framework template's, as a
 * reader's project has it), each `file:line: message`.
 */
export function typeErrors(files: string[], tsconfigPath: string): string[] {
  const { config, error } = ts.readConfigFile(tsconfigPath, (path) => ts.sys.readFile(path));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, tsconfigPath.replace(/[^/]+$/, ''), undefined, tsconfigPath);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return `(options): ${message}`;
    return `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: ${message}`;
  });
}
