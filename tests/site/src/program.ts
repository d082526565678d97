import { dirname } from 'node:path';
import ts from 'typescript';

/** The program of the tsconfig at `configPath`, as `tsc -p` makes it, with its config's errors. */
export function tsconfigProgram(configPath: string): { program: ts.Program; errors: ts.Diagnostic[] } {
  const { config, error } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath), undefined, configPath);
  return { program: ts.createProgram(parsed.fileNames, parsed.options), errors: parsed.errors };
}
