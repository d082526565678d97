import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** Where the test app is put together and built (git-ignored). */
export const appDir = join(packageDir, '.test-app');
/** What `react-router build` writes and `react-router-serve` serves. */
export const serverBuild = join(appDir, 'build', 'server', 'index.js');
export const clientBuild = join(appDir, 'build', 'client');
const reactRouterBin = join(repoRoot, 'node_modules', '@react-router', 'dev', 'bin.js');
const fixtureDir = join(packageDir, 'test', 'app');
const stampFile = join(appDir, 'build', 'paymount-inputs');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** What the build depends on: a build from the same inputs is reused. */
function inputsDigest(): string {
  const hash = createHash('sha256');
  const inputs = [...filesUnder(fixtureDir), ...['react-router', 'core'].flatMap((name) => filesUnder(join(repoRoot, 'packages', name, 'dist')))];
  for (const file of inputs) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

/** The environment of the build and the server: none of the payment settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PAYMENT_|PAYMOUNT_|NODE_ENV$|PORT$|HOST$)/.test(name)));
  return { ...env, NODE_ENV: 'production', ...extra };
}

/**
 * Builds the test app (`test/app`, a React Router framework-mode project as
 * the default template lays it out) with `react-router build`, once per set of
 * inputs. Returns the build's seconds (0 when reused).
 */
export function buildTestApp(): number {
  const digest = inputsDigest();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return 0;
  rmSync(appDir, { recursive: true, force: true });
  cpSync(fixtureDir, appDir, { recursive: true });
  const started = performance.now();
  const build = spawnSync(process.execPath, [reactRouterBin, 'build'], { cwd: appDir, env: appEnv(), encoding: 'utf8', timeout: 300_000 });
  writeFileSync(join(appDir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`react-router build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  writeFileSync(stampFile, digest);
  return Math.round((performance.now() - started) / 100) / 10;
}
