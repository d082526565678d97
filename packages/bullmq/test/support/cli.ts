import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
/** The file the package's `bin` names: what `npx paymount-queue` runs once installed. */
const bin = (JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { bin: Record<string, string> }).bin['paymount-queue']!;

/** Longer than any command's own deadline: a run still going by then hangs, and is killed. */
const HUNG_AFTER_MS = 30_000;

/**
 * Runs the built `paymount-queue` as a merchant would from a shell; resolves
 * its exit code (`'hung'` when it had to be killed) and output.
 */
export function paymountQueue(args: readonly string[]): Promise<{ code: number | 'hung'; stdout: string; stderr: string }> {
  if (!existsSync(`${packageDir}/${bin}`)) throw new Error(`${bin} is missing: run \`npm run build -w @paymount/bullmq\` first`);
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: packageDir, timeout: HUNG_AFTER_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : error.killed ? 'hung' : Number(error.code ?? 1), stdout, stderr });
    });
  });
}
