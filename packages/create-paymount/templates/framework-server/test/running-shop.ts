import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

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

/** A limit for a hang, never a verdict: the production build takes minutes on a busy machine. */
const STARTED_WITHIN_MS = 540_000;

/**
 * The shop as `npm start` runs it: the framework's production build, served by its own server, on the
 * embedded sandbox. Resolves once it has printed its URLs and its home page answers.
 */
export async function startShop(env: Record<string, string>): Promise<RunningShop> {
  // The test runner's own variables (NODE_ENV=test, VITEST_*) are not the shop's.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
  const port = await freePort();
  // Its own process group, so closing it stops npm's child server too.
  const child = spawn('npm', ['start'], { env: { ...inherited, ...env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
    const url = /^Shop:\s+(\S+)/m.exec(output)?.[1];
    const dashboard = /^Dashboard:\s+(\S+)/m.exec(output)?.[1];
    const answered = url !== undefined && dashboard !== undefined && (await fetch(url).then((res) => res.ok, () => false));
    if (answered) return { url, sandboxUrl: new URL(dashboard).origin, close };
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`npm start did not serve the shop:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
