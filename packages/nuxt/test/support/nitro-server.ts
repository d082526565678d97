import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binary, startServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { appEnv, packageDir, serverEntry, type Preset } from './test-app';

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
 * The test app's build for `preset` served as in production (serveCommand), on 127.0.0.1, with `env` (the payment settings, and those
 * `atOrigin` makes of the server's own origin) and nothing else of the tests'.
 */
export async function startNitroServer(
  env: Record<string, string>,
  { atOrigin = () => ({}), preset = 'node-server' }: { atOrigin?: (origin: string) => Record<string, string>; preset?: ServerPreset } = {},
): Promise<NitroServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { command, args, cwd = packageDir } = serveCommand(preset);
  const server = await startServer(command, args, {
    cwd,
    env: appEnv({ ...env, ...atOrigin(origin), HOST: '127.0.0.1', PORT: String(port) }),
    replaceEnv: true,
    readyUrl: `${origin}/conformance/own-route`,
    requireOk: true,
    timeoutMs: 60_000,
  });
  return { origin, output: server.output, stop: server.close };
}
