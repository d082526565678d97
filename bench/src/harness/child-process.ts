import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Messages between the harness and a child; the child side lives in `child-side.ts`. */
export type ToChild = { kind: 'request'; id: number; value: unknown };
export type FromChild =
  | { kind: 'ready'; value: unknown }
  | { kind: 'reply'; id: number; value: unknown }
  | { kind: 'failed'; id?: number; message: string };

const BENCH_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STOP_GRACE_MS = 3_000;

export interface Child<Ready> {
  readonly ready: Ready;
  /** Sends one request and waits for its reply, at most `timeoutMs`. */
  request<Reply>(value: unknown, timeoutMs: number): Promise<Reply>;
  /** CPU time (user + system, µs) the child has used so far. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * How long a child may take to say it is ready, to catch a hang: beside two other CI runs a
 * merchant-app on its own PostgreSQL database took over 20 s to compile, connect and migrate, and at a
 * load average of 40 the bench's own tests saw one pass 60 s. Under the tests' 180 s limit
 * (tools/vitest.shared.ts TEST_LIMITS), so a hang is named by this message, not by vitest's.
 */
const READY_LIMIT_MS = 150_000;

/**
 * Starts a TypeScript module in its own Node process (so it gets its own event
 * loop and, load permitting, its own core) and waits until it says it is ready.
 * The ready limit (READY_LIMIT_MS) only catches a hang.
 */
export async function startChild<Ready>(script: URL, args: unknown, nodeFlags: readonly string[] = []): Promise<Child<Ready>> {
  const child = fork(fileURLToPath(script), [JSON.stringify(args)], {
    cwd: BENCH_ROOT,
    execArgv: ['--import', 'tsx', ...nodeFlags, ...profilingFlags(script)],
    env: { ...process.env, TSX_TSCONFIG_PATH: `${BENCH_ROOT}tsconfig.json`, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${scriptName(script)} was not ready within ${READY_LIMIT_MS} ms`)), READY_LIMIT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${scriptName(script)} exited before it was ready (code ${code}, signal ${signal})`));
    });
    child.on('message', (message: FromChild) => {
      if (message.kind === 'ready') {
        clearTimeout(timer);
        resolve(message.value as Ready);
      } else if (message.kind === 'reply') {
        pending.get(message.id)?.resolve(message.value);
        pending.delete(message.id);
      } else {
        const error = new Error(`${scriptName(script)}: ${message.message}`);
        if (message.id === undefined) {
          clearTimeout(timer);
          reject(error);
        } else {
          pending.get(message.id)?.reject(error);
          pending.delete(message.id);
        }
      }
    });
  }).catch(async (error: unknown) => {
    await stopProcess(child, exited);
    throw error;
  });

  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${scriptName(script)} exited during a request`));
    pending.clear();
  });

  const request = <Reply>(value: unknown, timeoutMs: number): Promise<Reply> => {
    const id = nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${scriptName(script)} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply as Reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      child.send({ kind: 'request', id, value } satisfies ToChild);
    });
  };

  return {
    ready,
    request,
    async cpuMicros() {
      const usage = await request<NodeJS.CpuUsage>({ cpuUsage: true }, 10_000);
      return usage.user + usage.system;
    },
    stop: () => stopProcess(child, exited),
  };
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * BENCH_PROFILE=<subject name> (e.g. client-caller) runs those children under
 * `node --cpu-prof`; the profiles land in results/profiles/ when they stop.
 */
function profilingFlags(script: URL): string[] {
  const wanted = process.env.BENCH_PROFILE?.split(',').map((name) => name.trim());
  const name = script.pathname.split('/').pop()!.replace(/\.ts$/, '');
  return wanted?.includes(name) ? ['--cpu-prof', '--cpu-prof-dir', `${BENCH_ROOT}results/profiles`] : [];
}

function scriptName(script: URL): string {
  return script.pathname.split('/').slice(-2).join('/');
}
