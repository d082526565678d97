import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { checkDatabaseUrl, DATABASES, invokingPackageManager, PACKAGE_MANAGERS, parseCli, USAGE, UsageError, type Database, type PackageManager } from './args';
import { knownFrameworks, scaffold, ScaffoldError } from './scaffold';

/** Where the tool talks: the process's streams, or a test's. */
export interface CreateIo {
  out(line: string): void;
  err(line: string): void;
  /** Asks on a terminal; undefined when there is none, so nothing is asked. */
  ask?: ((question: string, choices?: readonly string[]) => Promise<string>) | undefined;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/**
 * The `@paymount/*` releases this package was published with: its own devDependencies, whose ranges
 * changesets moves with each release of theirs (`updateInternalDependencies`), as each package's
 * version is its own.
 */
function releasedWith(): Readonly<Record<string, string>> {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
}

function install(manager: PackageManager, dir: string, env: CreateIo['env']): Promise<number> {
  return new Promise((resolve, reject) => {
    // shell on Windows only: npm, pnpm and yarn are .cmd files there.
    const child = spawn(manager, ['install'], { cwd: dir, stdio: 'inherit', env: { ...env }, shell: process.platform === 'win32' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** How `script` is run with `manager`: `bun test` would be Bun's own test runner, not the script. */
function runScript(manager: PackageManager, script: 'start' | 'test'): string {
  if (manager === 'npm') return `npm ${script}`;
  return manager === 'bun' ? `bun run ${script}` : `${manager} ${script}`;
}

/** An answer on a terminal that must be one of `choices`. */
async function choose<T extends string>(io: CreateIo, question: string, choices: readonly T[]): Promise<T | undefined> {
  const answer = await io.ask?.(question, choices);
  if (answer !== undefined && !(choices as readonly string[]).includes(answer)) throw new UsageError(`${question}: one of ${choices.join(', ')}, not "${answer}"`);
  return answer as T | undefined;
}

/** The PostgreSQL server's URL, from the flag or the terminal: without either, the shop would have nowhere to keep its orders. */
async function databaseUrlOf(given: string | undefined, io: CreateIo): Promise<string> {
  const url = given ?? (await io.ask?.('PostgreSQL URL (postgres://user:password@host:5432/shop)', undefined));
  if (!url) throw new UsageError('name the PostgreSQL server with --database-url (postgres://user:password@host:5432/shop)');
  checkDatabaseUrl(url);
  return url;
}

/** Runs the tool; resolves the process's exit code. */
export async function create(argv: readonly string[], io: CreateIo): Promise<number> {
  try {
    const request = parseCli(argv);
    if (request.help) {
      io.out(USAGE);
      return 0;
    }
    const frameworks = knownFrameworks();
    const dir = request.dir ?? (await io.ask?.('Folder for the shop', undefined));
    const framework = request.framework ?? (await io.ask?.('Framework', frameworks));
    if (!dir) throw new UsageError('name the folder for the shop');
    if (!framework) throw new UsageError(`name the framework with --framework (${frameworks.join(', ')})`);
    const manager =
      request.packageManager ??
      invokingPackageManager(io.env['npm_config_user_agent']) ??
      (await choose(io, 'Package manager', PACKAGE_MANAGERS)) ??
      'npm';
    const database: Database = request.database ?? (await choose(io, 'Where orders live', DATABASES)) ?? 'pglite';
    const databaseUrl = database === 'postgres' ? await databaseUrlOf(request.databaseUrl, io) : undefined;
    const made = scaffold({ dir, framework, packages: request.packages, versions: releasedWith(), packageManager: manager, databaseUrl });
    io.out(`Made the ${framework} shop in ${made.dir} (${made.files.length} files, package ${made.name}).`);
    // The URL itself is never printed: it may hold a password.
    io.out(databaseUrl === undefined ? 'Its orders live in PGlite, in its data/ folder.' : 'Its orders live on your PostgreSQL server: DATABASE_URL is in its .env, which git ignores.');
    if (request.install) {
      io.out(`Installing its dependencies with ${manager}…`);
      const code = await install(manager, made.dir, io.env);
      if (code !== 0) {
        io.err(`${manager} install failed (exit code ${code}); the files are written: run it again in ${made.dir}.`);
        return code;
      }
    }
    const cd = relative(io.cwd, made.dir) || '.';
    io.out('');
    io.out('Next:');
    io.out(`  cd ${cd}`);
    if (!request.install) io.out(`  ${manager} install`);
    io.out(`  ${runScript(manager, 'start')}   # the shop on the embedded sandbox: it prints the shop's and the dashboard's URLs`);
    io.out(`  ${runScript(manager, 'test')}    # pays, declines and retries, replays a webhook`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ScaffoldError) {
      io.err(`create-paymount: ${error.message}`);
      if (error instanceof UsageError) io.err(USAGE);
      return 1;
    }
    throw error;
  }
}
