import { parseArgs } from 'node:util';

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];
/** Where the shop's orders and paymount's stores live: PGlite in the shop's folder, or a PostgreSQL server. */
export const DATABASES = ['pglite', 'postgres'] as const;
export type Database = (typeof DATABASES)[number];

/** What the command line asked for; what it left out is asked for on a terminal, or takes its default. */
export interface CliRequest {
  dir: string | undefined;
  framework: string | undefined;
  packages: string | undefined;
  install: boolean;
  packageManager: PackageManager | undefined;
  database: Database | undefined;
  /** The PostgreSQL server's URL, for `.env`; a URL names postgres on its own. */
  databaseUrl: string | undefined;
  help: boolean;
}

export const USAGE = `Usage: create-paymount <dir> --framework <name> [--packages <folder of .tgz>] [--no-install] [--package-manager npm|pnpm|yarn|bun] [--database pglite|postgres] [--database-url <url>]

  <dir>               an empty or new folder for the shop
  --framework         the shop's framework
  --packages          install paymount from the .tgz files in this folder (npm pack's) instead of the registry
  --no-install        write the files only
  --package-manager   what installs the dependencies (default: the one running this command, else npm)
  --database          where orders live: pglite (default; in the shop's folder) or postgres (a server)
  --database-url      the PostgreSQL server (postgres://user:password@host:5432/shop), written to .env`;

/** A command line the tool refuses: its message says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseCli(argv: readonly string[]): CliRequest {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        framework: { type: 'string', short: 'f' },
        packages: { type: 'string' },
        // Node 20's parseArgs has no negated booleans (allowNegative came in 22.4).
        'no-install': { type: 'boolean', default: false },
        'package-manager': { type: 'string' },
        database: { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`one folder only, not ${positionals.length}: ${positionals.join(', ')}`);
  const manager = values['package-manager'];
  if (manager !== undefined && !(PACKAGE_MANAGERS as readonly string[]).includes(manager)) {
    throw new UsageError(`--package-manager must be one of ${PACKAGE_MANAGERS.join(', ')}, not "${manager}"`);
  }
  const databaseUrl = values['database-url'];
  const database = values.database ?? (databaseUrl === undefined ? undefined : 'postgres');
  if (!(DATABASES as readonly string[]).includes(database ?? 'pglite')) throw new UsageError(`--database must be one of ${DATABASES.join(', ')}, not "${database}"`);
  if (databaseUrl !== undefined && database !== 'postgres') throw new UsageError('--database-url names a PostgreSQL server: it goes with --database postgres, not pglite');
  if (databaseUrl !== undefined) checkDatabaseUrl(databaseUrl);
  return {
    dir: positionals[0],
    framework: values.framework,
    packages: values.packages,
    install: !values['no-install'],
    packageManager: manager as PackageManager | undefined,
    database: database as Database | undefined,
    databaseUrl,
    help: values.help,
  };
}

/** Refuses what the shop's settings would refuse at its start (src/config.ts), without repeating it: it may hold a password. */
export function checkDatabaseUrl(url: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') throw new UsageError('the database URL is not a postgres:// or postgresql:// URL');
}

/** The package manager `npm create` / `pnpm create` / `yarn create` / `bun create` ran this with, from its user agent. */
export function invokingPackageManager(userAgent: string | undefined): PackageManager | undefined {
  const name = userAgent?.split('/')[0];
  return (PACKAGE_MANAGERS as readonly (string | undefined)[]).includes(name) ? (name as PackageManager) : undefined;
}
