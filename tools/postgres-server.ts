import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const HOST = '127.0.0.1';
const INSTALL_HINT = 'install it with `apt-get install -y postgresql` (Debian/Ubuntu) or `brew install postgresql`';
/** The OS user the server runs as when the tests run as root, which PostgreSQL refuses. */
const SERVER_USER = 'postgres';

/** The newest PostgreSQL under /usr/lib/postgresql, else whatever `pg_ctl` is on PATH. */
function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  return which.status === 0 ? join(which.stdout.trim(), '..') : undefined;
}

const binDir = findBinDir();
const runningAsRoot = process.getuid?.() === 0;

/** Whether a PostgreSQL server can be started here: its binaries, and (as root) an OS user to run it as. */
export const postgresServerAvailable =
  binDir !== undefined && (!runningAsRoot || spawnSync('id', ['-u', SERVER_USER], { stdio: 'ignore' }).status === 0);

/**
 * For `describe.skipIf(postgresSkipped)`: a local run without PostgreSQL
 * skips these suites and says how to get it; under CI a missing server fails the run.
 */
export const postgresSkipped = (() => {
  if (postgresServerAvailable) return false;
  const missing = binDir === undefined ? 'pg_ctl was not found (/usr/lib/postgresql/*/bin or PATH)' : `there is no OS user "${SERVER_USER}" to run it as (the tests run as root)`;
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}; ${INSTALL_HINT}.`);
  console.warn(`Skipping the PostgreSQL server tests: ${missing}; ${INSTALL_HINT}.`);
  return true;
})();


/** The command line of a PostgreSQL binary: as SERVER_USER when we are root. */
function commandOf(binary: string, args: readonly string[]): [string, string[]] {
  const file = join(binDir as string, binary);
  return runningAsRoot ? ['runuser', ['-u', SERVER_USER, '--', file, ...args]] : [file, [...args]];
}

const failure = (binary: string, args: readonly string[], error: unknown) => {
  const { stdout, stderr } = error as { stdout?: string; stderr?: string };
  return new Error(`${binary} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
};

/** Runs a PostgreSQL binary and waits for it, this process blocked meanwhile. */
function run(binary: string, args: readonly string[]): string {
  try {
    return execFileSync(...commandOf(binary, args), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw failure(binary, args, error);
  }
}

/** Runs a PostgreSQL binary without blocking this process: servers in it keep answering meanwhile. */
async function runAsync(binary: string, args: readonly string[]): Promise<string> {
  try {
    return (await promisify(execFile)(...commandOf(binary, args), { encoding: 'utf8' })).stdout;
  } catch (error) {
    throw failure(binary, args, error);
  }
}

export interface PostgresServer {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, local only). */
  readonly url: string;
  /** Stops the server: `fast` closes connections cleanly; `immediate` is a crash (recovered from the WAL at the next start). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again, on the same port and data. */
  start(): void;
  /**
   * A crash mid-run: stop('immediate'), `downMs` without a server, start()
   * (recovery from the WAL), without blocking this process, so what runs in it
   * (a sandbox, the test's shoppers) carries on meanwhile.
   */
  crash(downMs: number): Promise<void>;
  /** Creates an empty database and answers its URL: one server, a fresh database for each user of it. */
  createDatabase(name: string): string;
  /** Stops it and deletes its data. */
  destroy(): void;
}

/**
 * The limit of a hook that starts a server with startPostgresServer, or opens
 * PGlite: seconds on an idle machine, over 60 s beside two other CI runs (a
 * load average near 30).
 * A limit for a hung start, never a verdict.
 */
export const POSTGRES_START_LIMIT_MS = 180_000;

/**
 * A throwaway PostgreSQL cluster: `initdb` in a temporary folder, the server
 * on 127.0.0.1 and a free port, its socket in that folder (not /var/run), and
 * trust authentication for the `postgres` role. Run as the `postgres` OS user
 * when the tests run as root (CI). Answers queries before this resolves.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  if (!postgresServerAvailable) throw new Error(`PostgreSQL cannot be started here: ${INSTALL_HINT}.`);
  const port = await freePort(HOST);
  const dir = mkdtempSync(join(tmpdir(), 'paymount-pg-'));
  if (runningAsRoot) {
    const uid = Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=${HOST} -c max_connections=200`;
  const startArgs = ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start'];
  const stopArgs = (mode: 'fast' | 'immediate') => ['-D', data, '-m', mode, '-w', 'stop'];
  const start = () => void run('pg_ctl', startArgs);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => void run('pg_ctl', stopArgs(mode));
  start();
  const urlOf = (database: string) => `postgres://postgres@${HOST}:${port}/${encodeURIComponent(database)}`;
  return {
    port,
    url: urlOf('postgres'),
    start,
    stop,
    async crash(downMs) {
      await runAsync('pg_ctl', stopArgs('immediate'));
      await sleep(downMs);
      await runAsync('pg_ctl', startArgs);
    },
    createDatabase(name) {
      run('createdb', ['-h', dir, '-p', String(port), '-U', 'postgres', name]);
      return urlOf(name);
    },
    destroy() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
