import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readmeBlocks } from '../../../../tools/readme-blocks';
import { run, startServer, type RunningServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { TEST_LIMITS } from '../../../../tools/vitest.shared';

/** The conformance app: a TanStack Start project, built in place (its route tree and `.output` are git-ignored). */
export const appDir = join(import.meta.dirname, '..', 'start-app');
const viteBin = join(import.meta.dirname, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js');

/** The README's quick start files, written into the app as a merchant would add them. */
function writeQuickStart(): void {
  const files = readmeBlocks('tanstack-start', join(import.meta.dirname, '..', '..', 'README.md')).filter(
    (block) => block.section === 'Quick start' && block.fileName !== undefined,
  );
  if (files.length !== 2) throw new Error(`the README's quick start has ${files.length} named files, expected 2`);
  for (const { fileName, code } of files) {
    const path = join(appDir, fileName!);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, code);
  }
}

/** The quick start written in, then `vite build`, the template's `build` script: the client, and the Node server under `.output`. */
export async function buildApp(): Promise<void> {
  writeQuickStart();
  const outcome = await run(process.execPath, [viteBin, 'build'], { cwd: appDir, timeoutMs: TEST_LIMITS.hookTimeout });
  if (outcome.code !== 0) throw new Error(`vite build of the conformance app failed:\n${outcome.stdout}\n${outcome.stderr}`);
}

/** The build served as the template's `start` script serves it, `node .output/server/index.mjs`, on 127.0.0.1 with `env` added. */
export async function startApp(
  env: Record<string, string>,
  envOfOrigin: (origin: string) => Record<string, string> = () => ({}),
): Promise<RunningServer & { origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, ['.output/server/index.mjs'], {
    cwd: appDir,
    env: { ...env, ...envOfOrigin(origin), HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production' },
    readyUrl: `${origin}/conformance/own-route`,
    timeoutMs: 60_000,
  });
  return { ...server, origin };
}
