import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FRESH_APPS, writeFreshApp } from '../src/apps';
import { compileApp, type CompileResult } from '../src/compile';
import { buildNextApp, type NextBuild } from '../src/next-app';
import { createFreshProject } from '../src/project';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project the apps are in (outside the repository), and how each compiled. */
    freshProject: { dir: string; installMs: number; compiled: Record<string, CompileResult & { ms: number }>; nextBuild: NextBuild };
  }
}

/**
 * Once per run: packs the packages, installs them with the frameworks into a new project, writes
 * the six apps from the READMEs, compiles each with `tsc` and builds the Next.js one with `next build`. The times go to stdout (the CI log).
 */
export default async function setup({ provide }: TestProject): Promise<() => void> {
  const { dir, installMs } = createFreshProject();
  const compiled: Record<string, CompileResult & { ms: number }> = {};
  // Two compilers at a time: the machine's two cores.
  const queue = [...FRESH_APPS];
  const compileNext = async (): Promise<void> => {
    for (let app = queue.shift(); app; app = queue.shift()) {
      const started = performance.now();
      compiled[app.readme] = { ...(await compileApp(dir, writeFreshApp(dir, app))), ms: Math.round(performance.now() - started) };
    }
  };
  const compileStarted = performance.now();
  await Promise.all([compileNext(), compileNext()]);
  const compileMs = performance.now() - compileStarted;
  // After tsc: next build rewrites the app's tsconfig.json. A failure is the Next.js test's to report.
  const nextBuild = await buildNextApp(dir, join(dir, 'next'));
  writeFileSync(join(dir, 'compiled.json'), JSON.stringify(compiled, null, 2));
  const times = Object.entries(compiled).map(
    ([name, { ms, thirdParty }]) => `${name} ${(ms / 1000).toFixed(1)} s${thirdParty.length > 0 ? ` (${thirdParty.length} errors in other packages' declarations)` : ''}`,
  );
  process.stdout.write(`fresh apps: npm install ${(installMs / 1000).toFixed(1)} s; tsc ${(compileMs / 1000).toFixed(1)} s in all (${times.join(', ')}); next build ${nextBuild.seconds.toFixed(1)} s${nextBuild.failure ? ' (failed)' : ''}; in ${dir}\n`);
  provide('freshProject', { dir, installMs, compiled, nextBuild });
  return () => rmSync(dir, { recursive: true, force: true });
}
