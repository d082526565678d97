import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startServer, type RunningServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { readmeAstroFiles, readmeBlocks } from '../../../../tools/readme-blocks';
import { buildInputsDigest } from '../../../../tools/adapter-testing/build-inputs';

const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** Where the test app is put together and built (git-ignored). */
export const appDir = join(packageDir, '.test-app');
const astroBin = join(repoRoot, 'node_modules', 'astro', 'astro.js');
const fixtureDir = join(packageDir, 'test', 'astro-app');
/** WalletButton.astro and its script, which the app imports from the package as a shop does. */
const componentsDir = join(packageDir, 'components');
/** The conformance suite's options rebuilt in the app's process: the conformance endpoint imports it from the app's root. */
const remoteApp = join(repoRoot, 'tools', 'conformance', 'remote-app.mjs');
/** The other browser tests' Content Security Policy: the app's middleware imports it from the app's root. */
const strictCsp = join(repoRoot, 'tools', 'browser-testing', 'csp.ts');
/** "Your own order store" the README imports (`./orders.js`): the Next.js test app's, reaching the test's order service over HTTP. */
const ordersModule = join(repoRoot, 'packages', 'next', 'test', 'next-app', 'orders.js');
const readme = join(packageDir, 'README.md');
/** The site's guide, which holds the README's wallet button page and its scripts. */
const guide = join(repoRoot, 'site', 'guides', 'astro.md');
const stampFile = join(appDir, 'dist', 'paymount-inputs');

/** The environment of `astro build` and the server: none of the payment settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^(PAYMENT_|PAYMOUNT_|NODE_ENV$|PORT$|HOST$)/.test(entry[0])));
  return { ...env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1', ...extra };
}

interface AppFile {
  fileName: string;
  code: string;
}

/** The named TypeScript files of one section of a Markdown file, by path in the app (`payments.ts`, `src/pages/payments/[...paymount].ts`...), as written. */
function sectionFiles(markdown: string, section: string, expected: number): AppFile[] {
  const files = readmeBlocks('astro', markdown).filter((block) => block.section === section && block.fileName !== undefined);
  if (files.length !== expected) throw new Error(`${markdown}'s "${section}" has ${files.length} named files, expected ${expected}`);
  return files.map(({ fileName, code }) => ({ fileName: fileName!, code }));
}

/** The README's quick start, then the guide's wallet button order page, its wallet source and its script, as a shop has them. */
function readmeAppFiles(): AppFile[] {
  const pages = readmeAstroFiles(guide).filter((file) => file.section === 'The wallet button');
  if (pages.length !== 1) throw new Error(`the astro guide's "The wallet button" has ${pages.length} named .astro pages, expected 1`);
  return [...sectionFiles(readme, 'Quick start', 2), ...pages, ...sectionFiles(guide, 'The wallet button', 2)];
}

/**
 * Puts the test app together (the fixture, `test/astro-app`, the conformance
 * suite's `remote-app.mjs`, the browser tests' CSP, the README's quick start, the guide's wallet button page,
 * and the order store they import) and builds it with `astro build`,
 * once per set of inputs, with no payment setting in its environment: the
 * endpoints' options are made on the first payment request only. Returns the
 * build's seconds (0 when reused).
 */
export function buildTestApp(): number {
  const digest = buildInputsDigest([remoteApp, strictCsp, ordersModule, readme, guide], [fixtureDir, componentsDir], ['astro', 'browser', 'core']);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return 0;
  rmSync(appDir, { recursive: true, force: true });
  cpSync(fixtureDir, appDir, { recursive: true });
  cpSync(remoteApp, join(appDir, 'conformance-remote-app.mjs'));
  cpSync(strictCsp, join(appDir, 'strict-csp.ts'));
  cpSync(ordersModule, join(appDir, 'orders.js'));
  for (const { fileName, code } of readmeAppFiles()) {
    mkdirSync(dirname(join(appDir, fileName)), { recursive: true });
    writeFileSync(join(appDir, fileName), code);
  }
  const started = performance.now();
  const build = spawnSync(process.execPath, [astroBin, 'build', '--root', appDir], { cwd: appDir, env: appEnv(), encoding: 'utf8', timeout: 300_000 });
  writeFileSync(join(appDir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`astro build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  writeFileSync(stampFile, digest);
  return Math.round((performance.now() - started) / 100) / 10;
}

/** The built app's server entry: started by `node`, or imported with `ASTRO_NODE_AUTOSTART=disabled` for its `handler`. */
export const serverEntry = join(appDir, 'dist', 'server', 'entry.mjs');

export interface AstroServer extends RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

/** The built app served as @astrojs/node's standalone mode serves it in production: `node dist/server/entry.mjs`, with `env` added (`PUBLIC_URL` its origin unless given). */
export async function serveTestApp(env: Record<string, string>): Promise<AstroServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, [serverEntry], {
    cwd: appDir,
    // PUBLIC_URL: the README's origin for the webhook and return URLs.
    env: appEnv({ PUBLIC_URL: origin, ...env, HOST: '127.0.0.1', PORT: String(port) }),
    readyUrl: `${origin}/conformance/own-route`,
    timeoutMs: 60_000,
  });
  return { ...server, origin };
}
