import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { appEnv } from '../../../packages/next/test/support/test-app';
import { shopEnv, startServer, type RunningApp } from './run';

/** What `next build` of the fresh Next.js app did: its seconds, and its output when it failed. */
export interface NextBuild {
  seconds: number;
  failure?: string;
}

/** The `next` binary of the fresh project's own install, as `npx next` runs it there. */
function nextBin(projectDir: string): string {
  return join(projectDir, 'node_modules/next/dist/bin/next');
}

/**
 * `next build` in the app's directory with no payment setting in its environment (packages/next's
 * `appEnv`): the README's routes read their options on the first request, never while building.
 */
export async function buildNextApp(projectDir: string, appDir: string): Promise<NextBuild> {
  const started = performance.now();
  const child = spawn(process.execPath, [nextBin(projectDir), 'build'], { cwd: appDir, env: appEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return status === 0 ? { seconds } : { seconds, failure: `next build exited ${status}:\n${output}` };
}

/**
 * `next start` of the built app on 127.0.0.1:`port` with the README's sandbox switch
 * (`PAYMOUNT_SANDBOX=1`), `PUBLIC_URL` its origin, its shop holding `orders` and its API token.
 * Next.js answers once instrumentation's `register()` ran: the sandbox is up by then.
 */
export async function startNextApp(projectDir: string, appDir: string, port: number, orders: Record<string, number>): Promise<Omit<RunningApp, 'announcement'>> {
  const origin = `http://127.0.0.1:${port}`;
  const env = shopEnv(appEnv({ PAYMOUNT_SANDBOX: '1', PUBLIC_URL: origin }), port, orders);
  return startServer(
    appDir,
    [nextBin(projectDir), 'start', '-H', '127.0.0.1', '-p', String(port)],
    env,
    origin,
    (output) => (/Ready in/.test(output) ? true : undefined),
    60_000,
  );
}
