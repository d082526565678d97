import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { SETTINGS } from '../src/config';

export interface RunningShop {
  /** The shop's origin, as instrumentation.ts printed it. */
  url: string;
  /** The embedded sandbox's origin, from its dashboard's URL. */
  sandboxUrl: string;
  close(): Promise<void>;
}

/** Limits for a hang, never a verdict: `next dev` compiles each page and route on its first request; at a load of 50 on two cores its first start (compiling, PGlite's first migration) once took over 300 s. */
const STARTED_WITHIN_MS = 540_000;
export const TEST_WITHIN_MS = 240_000;

/**
 * The shop as `npm start` runs it (`next dev`: `next start` is production, which takes the real
 * service's settings), on a port of the system's choosing, on its own sandbox, with `env` over its
 * settings: whatever `.env` says, no other setting of it is used.
 */
export async function startShop(env: Record<string, string>): Promise<RunningShop> {
  // Set, even empty, a variable is not read from .env; empty is "not set" to the shop.
  const unset = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));
  const next = spawn(process.execPath, [createRequire(import.meta.url).resolve('next/dist/bin/next'), 'dev'], {
    // NODE_ENV as next dev sets it, not the test runner's `test`.
    env: { ...process.env, ...unset, ...env, NODE_ENV: 'development', PORT: '0', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  next.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  next.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const close = async () => {
    if (next.exitCode === null) {
      next.kill('SIGTERM');
      await once(next, 'exit');
    }
  };
  try {
    const url = await printed(next, () => output, /^Shop: +(\S+)$/m);
    const dashboard = await printed(next, () => output, /^Dashboard: +(\S+)/m);
    return { url, sandboxUrl: new URL(dashboard).origin, close };
  } catch (error) {
    await close();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`);
  }
}

/** The first match of `line` in what the server printed, once it is printed. */
async function printed(server: ChildProcess, output: () => string, line: RegExp): Promise<string> {
  const started = Date.now();
  for (;;) {
    const match = line.exec(output());
    if (match) return match[1]!;
    if (server.exitCode !== null) throw new Error(`next dev exited (${server.exitCode}) before printing ${line}`);
    if (Date.now() - started > STARTED_WITHIN_MS) throw new Error(`next dev printed no ${line} within ${STARTED_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
