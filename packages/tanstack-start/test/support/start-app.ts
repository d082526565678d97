import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tsxBlocks } from '../../../../tools/browser-testing/tsx-blocks';
import { readmeBlocks } from '../../../../tools/readme-blocks';
import { run, startServer, type RunningServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';

/** The conformance app: a TanStack Start project, built in place (its route tree and `.output` are git-ignored). */
export const appDir = join(import.meta.dirname, '..', 'start-app');
/** A limit for a hung build, never a verdict: on a busy 2-core machine the build passed 240 s (Nitro's server step). */
const BUILD_LIMIT_MS = 600_000;
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

/** Where the guide's order page (site/guides/tanstack-start.md, "The wallet button") is written in the app. */
export const ORDER_PAGE = 'src/routes/orders/$orderId/pay.tsx';

/**
 * The guide's order page, written into the app with its mount moved to
 * `/conformance`: the app's `/payments` is the quick start's, on a sandbox
 * of its own, while the Chromium tests pay through the routes whose options
 * are theirs.
 */
function writeOrderPage(): void {
  const page = tsxBlocks(join(import.meta.dirname, '..', '..', '..', '..', 'site', 'guides', 'tanstack-start.md')).filter((block) => block.fileName === ORDER_PAGE);
  if (page.length !== 1) throw new Error(`the TanStack Start guide has ${page.length} ${ORDER_PAGE} blocks, expected one`);
  const code = page[0]!.code.replaceAll(`"/payments`, `"/conformance`);
  if (code === page[0]!.code) throw new Error(`the guide's ${ORDER_PAGE} no longer names the mount "/payments"`);
  const path = join(appDir, ORDER_PAGE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code);
}

/** The quick start and the order page written in, then `vite build`, the template's `build` script: the client, and the Node server under `.output`. */
export async function buildApp(): Promise<void> {
  writeQuickStart();
  writeOrderPage();
  // Production, as the template's build script runs it: under the tests' NODE_ENV=test, the JSX would compile to
  // React's development runtime (jsxDEV), which the production server's React does not have.
  const outcome = await run(process.execPath, [viteBin, 'build'], { cwd: appDir, timeoutMs: BUILD_LIMIT_MS, env: { NODE_ENV: 'production' } });
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
