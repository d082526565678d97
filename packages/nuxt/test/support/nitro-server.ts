import { binary, startServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { appEnv, packageDir, serverEntry, type Preset } from './test-app';

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
  const server = await startServer(preset === 'bun' ? binary('bun') : process.execPath, [serverEntry(preset)], {
    cwd: packageDir,
    env: appEnv({ ...env, ...atOrigin(origin), HOST: '127.0.0.1', PORT: String(port) }),
    replaceEnv: true,
    readyUrl: `${origin}/conformance/own-route`,
    requireOk: true,
    timeoutMs: 60_000,
  });
  return { origin, output: server.output, stop: server.close };
}
