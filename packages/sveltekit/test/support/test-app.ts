import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readmeBlocks } from '../../../../tools/readme-blocks';
import { buildInputsDigest } from '../../../../tools/adapter-testing/build-inputs';
import { svelteBlocks } from '../../../../tools/browser-testing/tsx-blocks';

export const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** Where the test app is put together and built (git-ignored). */
export const appDir = join(packageDir, '.test-app');
const fixtureDir = join(packageDir, 'test', 'sveltekit-app');
const viteBin = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
/** The conformance suite's options rebuilt apart from the test process: the conformance route imports it from the app's root. */
const remoteApp = join(repoRoot, 'tools', 'conformance', 'remote-app.mjs');
const stampFile = join(appDir, 'build', 'paymount-inputs');
const readme = join(packageDir, 'README.md');
/** The site's SvelteKit guide: the quick start's page shoppers come back to, and the order page with the wallet button. */
const guide = join(repoRoot, 'site', 'guides', 'sveltekit.md');
/**
 * The quick start's own order store (`src/orders.ts`): the README tests' store, seeded from
 * SHOP_ORDERS by the fresh apps' shop module, beside it as the `order-store.ts` that module imports.
 */
const orderStore = join(repoRoot, 'tests', 'readmes', 'context', 'orders.ts');
const shopOrders = join(repoRoot, 'tests', 'fresh-apps', 'shop', 'orders.ts');
/** The tsconfig that type-checks the README's and the guide's TypeScript files: the template's own, over those files. */
export const READMES_TSCONFIG = 'tsconfig.readme.json';
/** The same, over the README's `.svelte` files too, for svelte-check. */
export const READMES_SVELTE_TSCONFIG = 'tsconfig.readme-svelte.json';
/** The guide's sections whose files the app has beside the quick start: the page shoppers come back to, the order page. */
const RETURN_SECTION = 'Where shoppers come back';
const PAGE_SECTION = 'The wallet button and the hosted checkout on your page';

/** The files as the README and the guide show them, by path under `src/` (`lib/server/payments.ts`...): the quick start, its return page and the order page. */
function readmeFiles(): { fileName: string; code: string }[] {
  const quickStart = readmeBlocks('sveltekit', readme).filter((block) => block.fileName !== undefined && block.section === 'Quick start');
  if (quickStart.length !== 3) throw new Error(`the sveltekit README's quick start has ${quickStart.length} named files, expected 3`);
  const guided = readmeBlocks('sveltekit', guide).filter((block) => block.fileName !== undefined);
  const returnPage = guided.filter((block) => block.section === RETURN_SECTION);
  const page = [...guided.filter((block) => block.section === PAGE_SECTION), ...svelteBlocks(guide)];
  if (returnPage.length !== 1 || page.length !== 2) throw new Error(`site/guides/sveltekit.md has ${returnPage.length} return page and ${page.length} order page files, expected 1 and 2`);
  return [...quickStart, ...returnPage, ...page].map(({ fileName, code }) => ({ fileName: fileName!, code }));
}

/**
 * Puts the test app together: the fixture (`test/sveltekit-app`, a SvelteKit
 * project as `sv create` makes it, with the conformance routes), the suite's
 * `remote-app.mjs`, the README's quick start under `src/` as written, its
 * order store, and the tsconfig that checks the README's files.
 */
function assemble(): void {
  rmSync(appDir, { recursive: true, force: true });
  cpSync(fixtureDir, appDir, { recursive: true });
  cpSync(remoteApp, join(appDir, 'conformance-remote-app.mjs'));
  cpSync(orderStore, join(appDir, 'src', 'order-store.ts'));
  cpSync(shopOrders, join(appDir, 'src', 'orders.ts'));
  const files = readmeFiles();
  for (const { fileName, code } of files) {
    const target = join(appDir, 'src', fileName);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
  }
  const include = ['src/app.d.ts', ...files.map(({ fileName }) => `src/${fileName}`)];
  const typeScript = include.filter((file) => file.endsWith('.ts'));
  writeFileSync(join(appDir, READMES_TSCONFIG), JSON.stringify({ extends: './tsconfig.json', include: typeScript }, null, 2));
  writeFileSync(join(appDir, READMES_SVELTE_TSCONFIG), JSON.stringify({ extends: './tsconfig.json', include }, null, 2));
}

/** The environment of `vite build` and `node build`: none of the payment or server settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PAYMENT_|PAYMOUNT_|NODE_ENV$|PORT$|HOST$|ORIGIN$|BODY_SIZE_LIMIT$)/.test(name)));
  return { ...env, NODE_ENV: 'production', ...extra };
}

/**
 * Builds the test app with `vite build` (SvelteKit with adapter-node), once
 * per set of inputs, with no payment setting in its environment: the routes'
 * options are read on the first request only. Returns the build's seconds (0 when reused).
 */
export function buildTestApp(): number {
  const digest = buildInputsDigest([readme, guide, remoteApp, orderStore, shopOrders], [fixtureDir], ['sveltekit', 'core', 'browser']);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return 0;
  assemble();
  const started = performance.now();
  const build = spawnSync(process.execPath, [viteBin, 'build'], { cwd: appDir, env: appEnv(), encoding: 'utf8', timeout: 600_000 });
  writeFileSync(join(appDir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`vite build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  writeFileSync(stampFile, digest);
  return Math.round((performance.now() - started) / 100) / 10;
}
