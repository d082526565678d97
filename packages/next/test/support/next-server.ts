import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../../tests/readmes/test/support/quick-start';
import { appDir, appEnv, nextBin } from './test-app';

export interface NextStart {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** `next start` serving the test app's build on 127.0.0.1, with `env` (the payment settings, the sandbox switch) and nothing else of the tests'. */
export async function nextStart(env: Record<string, string>): Promise<NextStart> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [nextBin, 'start', appDir, '-H', '127.0.0.1', '-p', String(port)], {
    env: appEnv({ ...env, PUBLIC_URL: origin }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 60_000;
  // Next.js answers once instrumentation's register() has run: the sandbox, when switched on, is up by then.
  while (!(await fetch(`${origin}/conformance/own-route`).then((res) => res.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer:\n${output}`);
    }
    await sleep(100);
  }
  return { origin, output: () => output, stop };
}
