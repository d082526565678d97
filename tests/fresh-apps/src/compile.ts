import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export interface CompileResult {
  /** Errors in the app's own files (the README's code) and in paymount's declarations: the app does not compile. */
  errors: string[];
  /**
   * Errors `skipLibCheck: false` finds in other packages' declarations (Next.js's own, or
   * `@types/koa` against the `content-disposition` Express 5 hoists): not paymount's to fix.
   */
  thirdParty: string[];
}

const DIAGNOSTIC = /^(.+?)\(\d+,\d+\): error TS\d+/;

/** Whose declarations a diagnostic's file is: the app's or paymount's count, other packages' are reported apart. */
function isThirdParty(file: string): boolean {
  return file.includes('node_modules/') && !file.includes('node_modules/@paymount/');
}

/** `tsc -p <appDir>` with the project's TypeScript, as the reader runs it; emits to `dist/` (for Next.js, `noEmit`). */
export async function compileApp(projectDir: string, appDir: string): Promise<CompileResult> {
  const child = spawn(process.execPath, [join(projectDir, 'node_modules/typescript/bin/tsc'), '-p', appDir, '--pretty', 'false'], { cwd: appDir });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  // A diagnostic's continuation lines start with spaces: keep them with it.
  const diagnostics: string[] = [];
  for (const line of lines) {
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics[diagnostics.length - 1] += `\n${line}`;
    else diagnostics.push(line);
  }
  const result: CompileResult = { errors: [], thirdParty: [] };
  for (const diagnostic of diagnostics) {
    const file = DIAGNOSTIC.exec(diagnostic)?.[1];
    (file !== undefined && isThirdParty(file) ? result.thirdParty : result.errors).push(diagnostic);
  }
  if (status !== 0 && diagnostics.length === 0) result.errors.push(`tsc exited ${status}: ${stderr}`);
  return result;
}
