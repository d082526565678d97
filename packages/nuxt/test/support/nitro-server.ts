import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { binary } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { appEnv, serverEntry, type Preset } from './test-app';

export interface NitroServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The test app's build for `preset` served as in production, `node .output/server/index.mjs`
 * (`bun` for the bun preset), on 127.0.0.1, with `env` (the payment settings, and those
 * `atOrigin` makes of the server's own origin) and nothing else of the tests'.
 */
export async function startNitroServer(
  env: Record<string, string>,
  { atOrigin = () => ({}), preset = 'node-server' }: { atOrigin?: (origin: string) => Record<string, string>; preset?: Preset } = {},
): Promise<NitroServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(preset === 'bun' ? binary('bun') : process.execPath, [serverEntry(preset)], {
    env: appEnv({ ...env, ...atOrigin(origin), HOST: '127.0.0.1', PORT: String(port) }),
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
  while (!(await fetch(`${origin}/conformance/own-route`).then((res) => res.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the ${preset} server did not answer:\n${output}`);
    }
    await sleep(100);
  }
  return { origin, output: () => output, stop };
}
