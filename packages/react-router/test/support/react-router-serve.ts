import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../../tests/readmes/test/support/quick-start';
import { appDir, appEnv, reactRouterServeBin, type TestAppName } from './test-app';

export interface ReactRouterServe {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM, as a host stopping the app does: resolves the signal or exit code it ended with, or `'still running'` (then killed) after 30 s. */
  stop(): Promise<NodeJS.Signals | number | 'still running'>;
}

/**
 * `react-router-serve ./build/server/index.js` (the default template's `npm start`) serving a test app's
 * build on 127.0.0.1, in production, with `env` and nothing else of the tests'.
 */
export async function reactRouterServe(name: TestAppName, env: Record<string, string>): Promise<ReactRouterServe> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [reactRouterServeBin, './build/server/index.js'], {
    cwd: appDir(name),
    env: appEnv({ ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = once(child, 'exit');
  const stop = async (): Promise<NodeJS.Signals | number | 'still running'> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
      if (!ended) {
        child.kill('SIGKILL');
        await exited;
        return 'still running';
      }
    }
    return child.signalCode ?? child.exitCode ?? 'still running';
  };
  const deadline = Date.now() + 60_000;
  while (!(await fetch(origin).then((res) => res.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`react-router-serve did not answer:\n${output}`);
    }
    await sleep(100);
  }
  return { origin, output: () => output, stop };
}
