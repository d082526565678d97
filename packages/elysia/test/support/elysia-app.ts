import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { ConformanceApp, RemoteRouteDescription } from '../../../../tools/conformance';
import { binary, startServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';

const packageDir = join(import.meta.dirname, '..', '..');
/** Where the compiled app is written (git-ignored). */
const appDir = join(packageDir, '.test-app');
const serverFile = join(appDir, 'server');
const entry = join(packageDir, 'test', 'elysia-app', 'src', 'conformance.ts');

/**
 * Elysia's production build of the conformance app, as its deployment guide
 * gives it: one executable, `@paymount/elysia` and `@paymount/core` bundled
 * from their built `dist` (Bun's export condition picks core's web build).
 */
export function buildElysiaApp(): void {
  const args = ['build', '--compile', '--minify-whitespace', '--minify-syntax', '--target', 'bun', '--outfile', serverFile, entry];
  const built = spawnSync(binary('bun'), args, { cwd: packageDir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bun ${args.join(' ')} failed (${built.status ?? built.signal}):\n${built.stdout}${built.stderr}`);
}

/** What the app does beside the plugin: its own Elysia prefix, a global parser reading JSON bodies before the plugin. */
export interface ElysiaAppSettings {
  appPrefix?: string;
  readsBodiesFirst?: boolean;
}

/** The compiled app serving the routes `description` describes, in production mode, on a free port of 127.0.0.1. */
export async function startElysiaApp(description: RemoteRouteDescription, { appPrefix = '', readsBodiesFirst = false }: ElysiaAppSettings = {}): Promise<ConformanceApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(serverFile, [JSON.stringify(description)], {
    cwd: appDir,
    env: { PORT: String(port), NODE_ENV: 'production', APP_PREFIX: appPrefix, READS_BODIES_FIRST: readsBodiesFirst ? '1' : '0' },
    readyUrl: `${origin}${description.mountPath}/own-route`,
    timeoutMs: 60_000,
  });
  return { url: `${origin}${description.mountPath}`, close: () => server.close() };
}
