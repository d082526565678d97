import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TEST_LIMITS } from '../../../tools/vitest.shared';

/** The built CLI `npm create paymount` runs: create-paymount's `bin`, as its package.json names it. */
const packageJsonPath = createRequire(import.meta.url).resolve('create-paymount/package.json');
const bin = join(dirname(packageJsonPath), (JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { bin: Record<string, string> }).bin['create-paymount']!);

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the CLI with no terminal, so it asks nothing: what the flags leave out is an error, as in CI. */
export function runCreatePaymount(args: readonly string[]): CliRun {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: TEST_LIMITS.testTimeout });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** A new folder for a shop, in a new temporary folder the caller removes. */
export function shopDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'paymount-site-create-')), 'my-shop');
}

/** The frameworks the CLI has a template for, from its refusal of a command line that names none. */
export function cliFrameworks(dir: string): string[] {
  const { err } = runCreatePaymount([dir, '--no-install']);
  const list = /name the framework with --framework \(([^)]*)\)/.exec(err)?.[1];
  if (list === undefined) throw new Error(`create-paymount named no frameworks; it said: ${err}`);
  return list.split(', ');
}
