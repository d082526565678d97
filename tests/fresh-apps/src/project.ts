import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@paymount/readme-tests/workspace';
import { packWorkspaces } from '../../../tools/npm-pack';

/** The packages a reader of the six READMEs installs, packed as npm publishes them. */
export const PAYMOUNT_PACKAGES = ['core', 'sandbox', 'express', 'koa', 'nestjs', 'fastify', 'hono', 'next'] as const;

/**
 * What the READMEs' `npm install` lines add beside paymount, at the ranges the README tests compile
 * against (their devDependencies: one place for the versions), plus what `tsc` and Next.js need.
 */
const FRAMEWORK_PACKAGES = [
  'express', '@types/express', 'koa', '@types/koa', 'fastify', 'hono', '@hono/node-server',
  '@nestjs/common', '@nestjs/core', '@nestjs/platform-express', 'reflect-metadata', 'rxjs', 'typescript',
];

function devDependencies(path: string): Record<string, string> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
}

function frameworkRanges(): Record<string, string> {
  const readmeTests = devDependencies(join(repoRoot, 'tests/readmes/package.json'));
  const next = devDependencies(join(repoRoot, 'packages/next/package.json'));
  const koa = devDependencies(join(repoRoot, 'packages/koa/package.json'));
  const root = devDependencies(join(repoRoot, 'package.json'));
  const ranges: Record<string, string | undefined> = {
    ...Object.fromEntries(FRAMEWORK_PACKAGES.map((name) => [name, readmeTests[name]])),
    // The Koa guide's "The webhook's raw body" block: the parser the Koa app had first.
    '@koa/bodyparser': koa['@koa/bodyparser'],
    next: next.next,
    react: next.react,
    'react-dom': next['react-dom'],
    // create-next-app installs React's types at React's major.
    '@types/react': next.react,
    '@types/react-dom': next['react-dom'],
    '@types/node': root['@types/node'],
  };
  const missing = Object.entries(ranges).filter(([, range]) => range === undefined);
  if (missing.length > 0) throw new Error(`no version range for ${missing.map(([name]) => name).join(', ')}`);
  return ranges as Record<string, string>;
}

/** `npm pack` of every paymount package a README installs, from its build: `file:` specs by package name. */
function packPackages(destination: string): Record<string, string> {
  const tarballs = packWorkspaces(PAYMOUNT_PACKAGES.map((name) => `@paymount/${name}`), destination);
  return Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]));
}

export interface FreshProject {
  /** The project's directory, outside the repository; each app is a folder in it. */
  dir: string;
  /** How long `npm install` took, in ms. */
  installMs: number;
}

/**
 * A new project in the system's temporary directory with every app's dependencies installed
 * by npm, as a reader's would be: paymount from the packed tarballs, the frameworks from the
 * registry. npm's cache (`npm_config_cache`, else `~/.npm`) is kept between runs, so a run
 * after the first installs from it.
 */
export function createFreshProject(): FreshProject {
  const dir = mkdtempSync(join(tmpdir(), 'paymount-fresh-apps-'));
  const tarballs = join(dir, 'tarballs');
  mkdirSync(tarballs);
  const dependencies = { ...frameworkRanges(), ...packPackages(tarballs) };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-apps', private: true, dependencies }, null, 2));
  // The README tests' strict settings, which every app's tsconfig extends by a relative path (Turbopack
  // resolves no absolute `extends`). Written once, before any app: rewritten per app, it was truncated
  // under a tsc of another app reading it, which then compiled with TypeScript's defaults (no legacy
  // decorators, target ES5: the Nest app's TS1206 and TS2802).
  copyFileSync(join(repoRoot, 'tests/readmes/blocks.tsconfig.json'), join(dir, 'blocks.tsconfig.json'));
  const started = performance.now();
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, npm_config_workspaces: undefined },
  });
  return { dir, installMs: Math.round(performance.now() - started) };
}
