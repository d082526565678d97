import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

const REDIS_SERVER = 'redis-server';
const HOST = '127.0.0.1';
const INSTALL_HINT = 'install it with `apt-get install redis-server` (Debian/Ubuntu) or `brew install redis`';

let available: boolean | undefined;

/** Whether `redis-server` can be run here; asked of the system once per process, when first wanted. */
export function redisServerAvailable(): boolean {
  available ??= spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
  return available;
}

let warned = false;

/**
 * For `describe.skipIf(redisSkipped())`: a local run without Redis skips
 * these suites and says how to get it (once per process, when a suite asks,
 * never on loading this module); under CI a missing Redis fails the run.
 */
export function redisSkipped(): boolean {
  if (redisServerAvailable()) return false;
  if (process.env.CI === 'true') throw new Error(`redis-server is required under CI: ${INSTALL_HINT}.`);
  if (!warned) console.warn(`Skipping the Redis tests: redis-server was not found on PATH; ${INSTALL_HINT}.`);
  warned = true;
  return true;
}


/** One PING over a raw socket: true when the server answers +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server (its data is gone: no persistence); connections drop. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * A throwaway `redis-server` on 127.0.0.1 and a free port, without
 * persistence unless `config` says otherwise, answering PING before this
 * resolves. `config` holds more command-line settings, each overriding the
 * defaults (e.g. `['--appendonly', 'yes']`, `['--rename-command', 'CONFIG', '']`);
 * given any, the server works in a temporary directory of its own, where an
 * append-only file or a snapshot would go.
 */
export async function startRedisServer(config: readonly string[] = []): Promise<RedisServer> {
  const port = await freePort(HOST);
  let child: ChildProcess | undefined;
  const dir = config.length === 0 ? [] : ['--dir', mkdtempSync(join(tmpdir(), 'paymount-redis-'))];

  const start = async () => {
    if (child) return;
    const args = ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--loglevel', 'warning', ...dir, ...config];
    const started = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let stderr = '';
    // Without a listener, a redis-server that cannot be run (not on PATH: ENOENT) crashes the whole process.
    let spawnError: Error | undefined;
    started.on('error', (error) => void (spawnError = error));
    started.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const failure = (message: string, cause?: Error) => {
      child = undefined;
      started.kill('SIGKILL');
      return new Error(message, cause === undefined ? undefined : { cause });
    };
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (spawnError !== undefined) throw failure(`redis-server could not be started (${spawnError.message}): ${INSTALL_HINT}`, spawnError);
      if (started.exitCode !== null) throw failure(`redis-server exited with ${started.exitCode}: ${stderr}`);
      if (await ping(port)) return;
      await sleep(50);
    }
    throw failure(`redis-server did not answer PING on port ${port} within 5 s`);
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };

  await start();
  return { port, url: `redis://${HOST}:${port}`, start, stop };
}
