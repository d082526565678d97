import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The npm-installed binary `name` (bun, deno), from the repository's node_modules/.bin. */
export function binary(name: string): string {
  const candidate = join(REPO_DIR, 'node_modules', '.bin', name);
  if (!existsSync(candidate)) throw new Error(`${candidate} not found: run npm ci at the repository root`);
  return candidate;
}

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` in `cwd` to its end (killed after `timeoutMs`), with its output; `env` adds to this process's environment. */
export function run(command: string, args: readonly string[], { cwd, timeoutMs, env = {} }: { cwd: string; timeoutMs: number; env?: Record<string, string> }): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
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

/**
 * Sends `signal` to every process of the group `pgid`; false when none is left (signal 0 only asks).
 * The group may empty between two calls, so "none left" is an answer, not an error.
 */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to every process of the group, then waits until none is left (SIGKILL after 30 s: a shutdown that hangs). */
async function stopGroup(pgid: number, leaderExited: Promise<unknown>): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  await leaderExited;
  const deadline = Date.now() + 30_000;
  while (signalGroup(pgid, Date.now() > deadline ? 'SIGKILL' : 0)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RunningServer {
  /** Everything the process wrote so far, stdout and stderr: its own words for a failure. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts `command` in `cwd` as a server, `env` added to the test's environment (or
 * instead of it), and resolves once `readyUrl` answers (any status, or a 2xx); rejects, quoting its output,
 * if it exits first or does not answer within `timeoutMs`.
 */
export async function startServer(
  command: string,
  args: readonly string[],
  {
    cwd,
    env,
    readyUrl,
    timeoutMs,
    replaceEnv = false,
    requireOk = false,
  }: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    readyUrl: string;
    timeoutMs: number;
    /** `env` is the server's whole environment, so nothing of the test's (a payment setting of the shell) reaches it. */
    replaceEnv?: boolean;
    /** Ready only once `readyUrl` answers 2xx: a server that answers before its app is loaded is not. */
    requireOk?: boolean;
  },
): Promise<RunningServer> {
  // Its own process group, stopped as a whole: `npm start` runs its script in a shell that does not pass
  // SIGTERM on, and SIGTERM to npm alone left the shop's node running (each proof of a template leaked one).
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: replaceEnv ? env : { ...process.env, NO_COLOR: '1', ...env } });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');
  const close = () => stopGroup(child.pid!, exited);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before serving:\n${output}`);
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(1_000) });
      if (!requireOk || res.ok) return { output: () => output, close };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`${command} did not answer at ${readyUrl} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
