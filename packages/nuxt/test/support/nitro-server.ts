import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { binary } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { appEnv, serverEntry, type Preset } from './test-app';

/** The presets whose build is a server process; `cloudflare-module`'s is a Worker (support/nitro-worker.ts). */
export type ServerPreset = Exclude<Preset, 'cloudflare-module'>;

/**
 * The command serving `preset`'s build: `node` or `bun` on the entry, and for Deno the `start` task `nuxt build`
 * wrote into `.output/deno.json` (its permissions and flags, as `deno task start` runs it), run from `.output`.
 */
function serveCommand(preset: ServerPreset): { command: string; args: string[]; cwd?: string } {
  const entry = serverEntry(preset);
  if (preset === 'bun') return { command: binary('bun'), args: [entry] };
  if (preset === 'node-server') return { command: process.execPath, args: [entry] };
  const outputDir = dirname(dirname(entry));
  const task = (JSON.parse(readFileSync(join(outputDir, 'deno.json'), 'utf8')) as { tasks: { start: string } }).tasks.start;
  const [, ...args] = task.split(' ');
  return { command: binary('deno'), args, cwd: outputDir };
}

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
  { atOrigin = () => ({}), preset = 'node-server' }: { atOrigin?: (origin: string) => Record<string, string>; preset?: ServerPreset } = {},
): Promise<NitroServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { command, args, cwd } = serveCommand(preset);
  const child = spawn(command, args, {
    cwd,
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
