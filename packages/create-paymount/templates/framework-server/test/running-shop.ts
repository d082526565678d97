import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

export interface RunningShop {
  /** Where the shop said it is (`Shop:`). */
  url: string;
  /** The embedded sandbox's origin (`Dashboard:`). */
  sandboxUrl: string;
  close(): Promise<void>;
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A limit for a hang, never a verdict: the build and the first start take minutes on a busy machine. */
const STARTED_WITHIN_MS = 300_000;

/** A limit for a hung test, never a verdict: a built shop answers each request at once. */
export const TEST_WITHIN_MS = 60_000;

/** The test runner's own variables (NODE_ENV=test, VITEST_*) are not the shop's. */
function shopEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST'))), ...env };
}

/** The framework's production build, as `npm start` makes it before serving it. */
async function buildShop(): Promise<void> {
  try {
    await promisify(execFile)('npm', ['run', 'build'], { env: shopEnv({}), maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}\n${stderr}`);
  }
}

/** `npm run serve` on `port` once it has printed its URLs and its home page answers; undefined if another process took the port first. */
async function serveOn(port: number, env: Record<string, string>): Promise<RunningShop | undefined> {
  // Its own process group, so closing it stops npm's child server too.
  const child = spawn('npm', ['run', 'serve'], { env: shopEnv({ ...env, PORT: String(port) }), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + STARTED_WITHIN_MS;
  for (;;) {
    // The shop prints its URLs once started: before it listens (SvelteKit's init), or on the first request, which server.mjs makes as it listens (Astro).
    if (await fetch(`http://127.0.0.1:${port}/`).then((res) => res.ok, () => false)) {
      const url = /^Shop:\s+(\S+)/m.exec(output)?.[1];
      const dashboard = /^Dashboard:\s+(\S+)/m.exec(output)?.[1];
      if (url !== undefined && dashboard !== undefined) return { url, sandboxUrl: new URL(dashboard).origin, close };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      // The server listens only once the sandbox and the database are up: the port may have been taken meanwhile.
      if (output.includes('EADDRINUSE')) return undefined;
      throw new Error(`npm run serve did not serve the shop:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The shop as `npm start` runs it: the framework's production build, served by its own server, on the
 * embedded sandbox.
 */
export async function startShop(env: Record<string, string>): Promise<RunningShop> {
  await buildShop();
  for (let attempt = 1; ; attempt++) {
    const shop = await serveOn(await freePort(), env);
    if (shop) return shop;
    if (attempt === 3) throw new Error('npm run serve found its port taken three times');
  }
}
