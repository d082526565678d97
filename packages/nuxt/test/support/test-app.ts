import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readmeBlocks } from '../../../../tools/readme-blocks';
import { buildInputsDigest } from '../../../../tools/adapter-testing/build-inputs';
import { vueBlocks } from '../../../../tools/browser-testing/tsx-blocks';

export const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** The Nitro presets the test app is built for, each where it is put together and built (git-ignored). */
export const PRESET_DIRS = {
  'node-server': join(packageDir, '.test-app'),
  bun: join(packageDir, '.test-app-bun'),
  'deno-server': join(packageDir, '.test-app-deno'),
  'cloudflare-module': join(packageDir, '.test-app-cloudflare'),
} as const;
export type Preset = keyof typeof PRESET_DIRS;
/** The node-server build: the one the README's files are type-checked in. */
export const appDir = PRESET_DIRS['node-server'];
const nuxtBin = join(repoRoot, 'node_modules', 'nuxt', 'bin', 'nuxt.mjs');
const fixtureDir = join(packageDir, 'test', 'nuxt-app');
/** The conformance suite's options rebuilt in the app's process: its conformance route imports it from the app's root. */
const remoteApp = join(repoRoot, 'tools', 'conformance', 'remote-app.mjs');
/** What `nuxt build` writes: `node .output/server/index.mjs` (or `bun ...`) serves it. */
export function serverEntry(preset: Preset): string {
  return join(PRESET_DIRS[preset], '.output', 'server', 'index.mjs');
}
const readme = join(packageDir, 'README.md');
/** The site's Nuxt guide: the order page with the wallet button, and the middleware that reads bodies before the routes. */
const guide = join(repoRoot, 'site', 'guides', 'nuxt.md');
/** The guide's section whose server middleware the app has beside the quick start (its auth middleware would lock the test routes). */
const BODIES_SECTION = 'Bodies read before the routes';
/** "Your own order store" of the READMEs (tests/readmes/context): the quick start's `orders`, in server/utils as Nitro imports it. */
const orderStore = join(repoRoot, 'tests', 'readmes', 'context', 'orders.ts');

/**
 * The README's quick start files and the guide's middleware, by path in the app (`nuxt.config.ts`,
 * `server/routes/payments/[...].ts`, `server/middleware/form-fields.ts`), as written.
 */
export function readmeFiles(): { fileName: string; code: string }[] {
  const blocks = [
    ...readmeBlocks('nuxt', readme).filter((block) => block.section === 'Quick start'),
    ...readmeBlocks('nuxt', guide).filter((block) => block.section === BODIES_SECTION),
  ];
  return blocks.flatMap(({ fileName, code }) => (fileName === undefined ? [] : [{ fileName, code }]));
}

/** The guide's pages (`app/pages/orders/[id].vue`), as written: vue-tsc checks them, the Chromium tests pay through them. */
export function readmePages(): { fileName: string; code: string }[] {
  return vueBlocks(guide).flatMap(({ fileName, code }) => (fileName === undefined ? [] : [{ fileName, code }]));
}

/**
 * Puts the test app together: the fixture (`test/nuxt-app`: the template's
 * files, the test routes), the conformance suite's `remote-app.mjs`, the
 * order store, and the README's files and pages over them (its
 * `nuxt.config.ts` replaces the template's).
 */
function assemble(appDir: string): void {
  rmSync(appDir, { recursive: true, force: true });
  cpSync(fixtureDir, appDir, { recursive: true });
  cpSync(remoteApp, join(appDir, 'conformance-remote-app.mjs'));
  cpSync(orderStore, join(appDir, 'server', 'utils', 'orders.ts'));
  for (const { fileName, code } of [...readmeFiles(), ...readmePages()]) {
    mkdirSync(dirname(join(appDir, fileName)), { recursive: true });
    writeFileSync(join(appDir, fileName), code);
  }
}

/** The environment of `nuxt build` and the built server: none of the payment settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PAYMENT_|PAYMOUNT_|NUXT_|NITRO_|NODE_ENV$|PORT$|HOST$)/.test(name)));
  return { ...env, NODE_ENV: 'production', CI: '1', NUXT_TELEMETRY_DISABLED: '1', ...extra };
}

/**
 * Nuxt's build cache (`experimental.buildCache`, in the app's `.nuxtrc`): the Vue client and server builds of
 * the first `nuxt build` are stored, keyed by the app's folder, files and config (Nitro's left out), and
 * restored by the next builds in that folder, which then only run Nitro for their preset.
 */
const NUXTRC = 'experimental.buildCache=true\n';

/**
 * The presets built in the node-server app's folder from its cached Vue builds: their `.output` is the one
 * their own full build writes, byte for byte but the build id (compared file by file). Not Cloudflare's:
 * under the Worker's conditions Vite resolves `vue` in the Vue server build itself (to `vue/index.mjs`),
 * where from the cache Nitro would bundle another build of Vue, so it is built in full in its own folder.
 */
const FROM_CACHE: readonly Preset[] = ['bun', 'deno-server'];

/** Runs `nuxt build` in `dir` for `preset`; its log goes to the preset's folder (in the node-server app's, to `.output`, which Nuxt's cache key leaves out). */
function nuxtBuild(preset: Preset, dir: string): void {
  const build = spawnSync(process.execPath, [nuxtBin, 'build', dir], { env: appEnv({ NITRO_PRESET: preset }), encoding: 'utf8', timeout: 600_000 });
  const logDir = preset === 'node-server' ? join(appDir, '.output') : PRESET_DIRS[preset];
  mkdirSync(logDir, { recursive: true });
  writeFileSync(join(logDir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`nuxt build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
}

const stampOf = (preset: Preset) => join(PRESET_DIRS[preset], '.output', 'paymount-inputs');
const isBuilt = (preset: Preset, digest: string) => existsSync(stampOf(preset)) && readFileSync(stampOf(preset), 'utf8') === digest;

/**
 * Builds the test app with `nuxt build` for Nitro's `preset`, once per set of
 * inputs, with no payment setting in its environment: the routes' options are
 * made on the first request only. Returns the build's seconds (0 when reused).
 *
 * A preset of FROM_CACHE is built in the node-server app's folder, with the node-server build's `.nuxt` (the
 * README's pages are type-checked against it) and `.output` set aside in the preset's folder meanwhile; its
 * own `.output` then moves there.
 */
export function buildTestApp(preset: Preset): number {
  // The README's and the guide's blocks the app is made from, not their prose; and the browser module the wallet button runs.
  const digest = createHash('sha256').update(buildInputsDigest([orderStore, remoteApp], [fixtureDir], ['nuxt', 'browser', 'core'])).update(JSON.stringify([...readmeFiles(), ...readmePages()])).digest('hex');
  if (isBuilt(preset, digest)) return 0;
  const started = performance.now();
  const presetDir = PRESET_DIRS[preset];
  if (preset === 'node-server' || (FROM_CACHE.includes(preset) && !isBuilt('node-server', digest))) {
    assemble(appDir);
    writeFileSync(join(appDir, '.nuxtrc'), NUXTRC);
  }
  if (preset === 'node-server') {
    nuxtBuild(preset, appDir);
  } else if (!FROM_CACHE.includes(preset)) {
    assemble(presetDir);
    nuxtBuild(preset, presetDir);
  } else {
    rmSync(presetDir, { recursive: true, force: true });
    mkdirSync(presetDir, { recursive: true });
    const setAside = ['.nuxt', '.output'].filter((name) => existsSync(join(appDir, name)));
    for (const name of setAside) renameSync(join(appDir, name), join(presetDir, `node-server${name}`));
    try {
      nuxtBuild(preset, appDir);
      renameSync(join(appDir, '.output'), join(presetDir, '.output'));
    } finally {
      for (const name of ['.nuxt', '.output']) rmSync(join(appDir, name), { recursive: true, force: true });
      for (const name of setAside) renameSync(join(presetDir, `node-server${name}`), join(appDir, name));
    }
  }
  writeFileSync(stampOf(preset), digest);
  return Math.round((performance.now() - started) / 100) / 10;
}
