import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tsxBlocks } from '../../../../tools/browser-testing/tsx-blocks';
import { readmeBlocks } from '../../../../tools/readme-blocks';

export const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
const reactRouterBin = join(repoRoot, 'node_modules', '@react-router', 'dev', 'bin.js');
export const reactRouterServeBin = join(repoRoot, 'node_modules', '@react-router', 'serve', 'bin.js');
const readme = join(packageDir, 'README.md');
/** The site's guide, which holds the README's other files: the order page, the refund route, the wallet button's page. */
const guide = join(repoRoot, 'site', 'guides', 'react-router.md');
/** What every test app shares: the default template's config files, its root layout and an index page. */
const baseDir = join(packageDir, 'test', 'app');
/** "Your own order store" of the README, kept by the test process and reached over HTTP (packages/next's, reused). */
const ordersClient = join(repoRoot, 'packages', 'next', 'test', 'next-app', 'orders.js');

export type TestAppName = 'conformance' | 'quick-start';

/** Where each test app is put together and built (git-ignored). */
export function appDir(name: TestAppName): string {
  return join(packageDir, '.test-app', name);
}

/** What `react-router build` wrote: the server build `react-router-serve` serves, and the browser assets. */
export function buildOf(name: TestAppName): { server: string; client: string } {
  return { server: join(appDir(name), 'build', 'server', 'index.js'), client: join(appDir(name), 'build', 'client') };
}

/** A section's files, as the Markdown file shows them, by path in the app. */
function sectionFiles(markdown: string, section: string, expected: number): { fileName: string; code: string }[] {
  const files = readmeBlocks('react-router', markdown).filter((block) => block.section === section && block.fileName !== undefined);
  if (files.length !== expected) throw new Error(`${markdown}'s "${section}" has ${files.length} named files, expected ${expected}`);
  return files.map(({ fileName, code }) => ({ fileName: fileName!, code }));
}

/**
 * The README's quick start (three files), with the guide's order page and refund route, registered in
 * `app/routes.ts` as the guide says, and the order store at the app's root.
 */
function writeQuickStart(dir: string): void {
  const files = [...sectionFiles(readme, 'Quick start', 3), ...sectionFiles(guide, 'Where shoppers land', 1), ...sectionFiles(guide, 'Refunds and lookups', 1)];
  for (const { fileName, code } of files) {
    const routes = '] satisfies RouteConfig;';
    const added = ", route('orders/:id', 'routes/orders.$id.ts'), route('admin/refund', 'routes/admin.refund.ts')";
    const text = fileName === 'app/routes.ts' ? code.replace(routes, `${added}${routes}`) : code;
    if (text === code && fileName === 'app/routes.ts') throw new Error("the README's app/routes.ts no longer ends its list as expected");
    mkdirSync(dirname(join(dir, fileName)), { recursive: true });
    writeFileSync(join(dir, fileName), text);
  }
  cpSync(ordersClient, join(dir, 'orders.js'));
}

/** Where the README's order page is written in the conformance app, whose routes.js registers it. */
export const WALLET_PAGE = 'app/routes/orders.$id.pay.tsx';

/** The guide's order page with the wallet button, as written. */
function writeWalletPage(dir: string): void {
  const page = tsxBlocks(guide).filter((block) => block.fileName === WALLET_PAGE);
  if (page.length !== 1) throw new Error(`the react-router guide has ${page.length} ${WALLET_PAGE} blocks, expected one`);
  writeFileSync(join(dir, WALLET_PAGE), page[0]!.code);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** What a build depends on: a build from the same inputs is reused. */
function inputsDigest(name: TestAppName): string {
  const hash = createHash('sha256');
  const own = name === 'conformance' ? [...filesUnder(join(packageDir, 'test', 'conformance-app')), guide] : [readme, guide, ordersClient];
  const packages = ['react-router', 'core', 'sandbox', 'react', 'browser'].flatMap((pkg) => filesUnder(join(repoRoot, 'packages', pkg, 'dist')));
  for (const file of [...filesUnder(baseDir), ...own, ...packages]) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

/** The environment of the build and the server: none of the payment settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(PAYMENT_|PAYMOUNT_|NODE_ENV$|PORT$|HOST$|PUBLIC_URL$)/.test(key)));
  return { ...env, NODE_ENV: 'production', ...extra };
}

/**
 * Builds a test app with `react-router build`, once per set of inputs: the
 * base (`test/app`, laid out as the default template) with the conformance
 * routes (`test/conformance-app`), or with the README's and the guide's files. Returns the
 * build's seconds (0 when reused).
 */
export function buildTestApp(name: TestAppName): number {
  const dir = appDir(name);
  const stamp = join(dir, 'build', 'paymount-inputs');
  const digest = inputsDigest(name);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return 0;
  rmSync(dir, { recursive: true, force: true });
  cpSync(baseDir, dir, { recursive: true });
  if (name === 'conformance') {
    cpSync(join(packageDir, 'test', 'conformance-app'), dir, { recursive: true });
    writeWalletPage(dir);
  } else writeQuickStart(dir);
  const started = performance.now();
  const build = spawnSync(process.execPath, [reactRouterBin, 'build'], { cwd: dir, env: appEnv(), encoding: 'utf8', timeout: 300_000 });
  writeFileSync(join(dir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`react-router build of the ${name} app failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  writeFileSync(stamp, digest);
  return Math.round((performance.now() - started) / 100) / 10;
}
