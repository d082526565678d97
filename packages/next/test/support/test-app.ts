import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { readmeBlocks } from '../../../../tools/readme-blocks';
import { buildInputsDigest } from '../../../../tools/adapter-testing/build-inputs';

export const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** Where the test app is put together and built (git-ignored). */
export const appDir = join(packageDir, '.test-app');
export const nextBin = join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
const fixtureDir = join(packageDir, 'test', 'next-app');
const readme = join(packageDir, 'README.md');
/** The Next.js guide, which holds the README's sections beyond its quick start (the admin routes of "Refunds and lookups"). */
const guide = join(repoRoot, 'site', 'guides', 'next.md');
/** The conformance suite's options rebuilt in another runtime: the edge conformance route imports it from the app's root. */
const remoteApp = join(repoRoot, 'tools', 'conformance', 'remote-app.mjs');
export const REMOTE_APP_FILE = 'conformance-remote-app.mjs';
/** The merchant's flows other runtimes run (tests/runtimes): the app's runtime checks import their steps from the app's root. */
const runtimeFlows = join(repoRoot, 'tests', 'runtimes', 'flows', 'flows.mjs');
const RUNTIME_FLOWS_FILE = 'runtime-flows.mjs';
/** Where the README's admin routes are served again with `runtime = 'edge'`: as deep as app/admin, so their imports hold. */
export const EDGE_ADMIN = 'edge-admin';
const stampFile = join(appDir, '.next', 'paymount-inputs');

/** A section's files, as the README (or the guide) shows them, by path in the app (`payments.ts`, `app/payments/[...paymount]/route.ts`...). */
function readmeFiles(section: string, expected: number, from = readme): { fileName: string; code: string }[] {
  const files = readmeBlocks('next', from).filter((block) => block.section === section && block.fileName !== undefined);
  if (files.length !== expected) throw new Error(`${from}: "${section}" has ${files.length} named files, expected ${expected}`);
  return files.map(({ fileName, code }) => ({ fileName: fileName!, code }));
}

/**
 * The README's files: the quick start, and the guide's admin routes of "Refunds
 * and lookups", also at app/edge-admin with the line the guide's edge section
 * says to add.
 */
function appFiles(): { fileName: string; code: string }[] {
  const admin = readmeFiles('Refunds and lookups', 2, guide);
  const edgeAdmin = admin.map(({ fileName, code }) => ({
    fileName: fileName.replace(/^app\/admin\//, `app/${EDGE_ADMIN}/`),
    code: `${code}\nexport const runtime = 'edge';\n`,
  }));
  return [...readmeFiles('Quick start', 4), ...admin, ...edgeAdmin];
}

/**
 * Puts the test app together: the fixture (`test/next-app`: the order store,
 * the conformance routes, a misplaced route, the README's route on the edge
 * runtime, the runtime checks), the conformance suite's `remote-app.mjs`, the
 * runtimes' `flows.mjs`, and the README's files (`appFiles`) with their types
 * erased (a TypeScript app would have Next.js install `@types/react`;
 * tests/readmes type-checks the same blocks).
 */
function assemble(): void {
  rmSync(appDir, { recursive: true, force: true });
  cpSync(fixtureDir, appDir, { recursive: true });
  cpSync(remoteApp, join(appDir, REMOTE_APP_FILE));
  cpSync(runtimeFlows, join(appDir, RUNTIME_FLOWS_FILE));
  for (const { fileName, code } of appFiles()) {
    const target = join(appDir, fileName.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    const { outputText } = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName,
    });
    writeFileSync(target, outputText);
  }
}

/** The environment of `next build` and `next start`: none of the payment settings of the shell running the tests. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PAYMENT_|PAYMOUNT_|NEXT_|NODE_ENV$|PORT$)/.test(name)));
  // CI: Next.js never installs a missing package on its own, it fails instead. NODE_ENV: what next build and next start set.
  return { ...env, NODE_ENV: 'production', CI: '1', NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

/**
 * Builds the test app with `next build`, once per set of inputs, with no
 * payment setting in its environment: the routes' options are read on the
 * first request only. Returns the build's seconds (0 when reused).
 */
export function buildTestApp(): number {
  const digest = buildInputsDigest([readme, guide, remoteApp, runtimeFlows], [fixtureDir], ['next', 'core']);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return 0;
  assemble();
  const started = performance.now();
  const build = spawnSync(process.execPath, [nextBin, 'build', appDir], { env: appEnv(), encoding: 'utf8', timeout: 300_000 });
  writeFileSync(join(appDir, 'build.log'), `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) throw new Error(`next build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  writeFileSync(stampFile, digest);
  return Math.round((performance.now() - started) / 100) / 10;
}
