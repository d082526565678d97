import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** tests/runtimes: where the flow scripts run from, so `@paymount/core` resolves through node_modules. */
export const RUNTIMES_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The npm-installed binary `name` (bun, deno), from the nearest node_modules/.bin above this package. */
export function binary(name: string): string {
  for (let dir = RUNTIMES_DIR; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`node_modules/.bin/${name} not found above ${RUNTIMES_DIR}: run npm ci at the repository root`);
  }
}

/**
 * The one permission the README names: network, here scoped to 127.0.0.1 (the
 * sandbox, the routes' own server, the conformance suite's bridge). No
 * --allow-env, --allow-read or -A.
 */
export const DENO_PERMISSIONS = ['--allow-net=127.0.0.1'];

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end (killed after `timeoutMs`), with its output; `env` adds to this process's environment. */
export function run(command: string, args: readonly string[], timeoutMs: number, env: Record<string, string> = {}): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: RUNTIMES_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
