import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A TypeScript file running in a process of its own, with an IPC channel. */
export interface ForkedProcess {
  child: ChildProcess;
  /** Resolves with the signal that ended it (SIGKILL for a crash), or null for an exit. */
  exited: Promise<NodeJS.Signals | null>;
}

/**
 * Forks `script` through tsx in `cwd`, with `env` added to this process's
 * environment, and resolves once it sends a message `readyOf` takes (what it
 * returns is `ready`); rejects if it ends first.
 */
export async function forkTypeScript<Ready>(
  script: string,
  { cwd, env }: { cwd: string; env: Record<string, string> },
  readyOf: (message: never) => Ready | undefined,
): Promise<ForkedProcess & { ready: Ready }> {
  const child = fork(script, { cwd, execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  const ready = await new Promise<Ready>((resolve, reject) => {
    void exited.then((signal) => reject(new Error(`${script} ended (${signal ?? child.exitCode}) before it was ready`)));
    child.on('message', (message) => {
      const found = readyOf(message as never);
      if (found !== undefined) resolve(found);
    });
  });
  return { child, exited, ready };
}

/**
 * Requests to a forked process: each message goes with a fresh `id`, and
 * resolves with the first message that comes back with that id; rejects when
 * the process ends first.
 */
export function ipcRequests({ child, exited }: ForkedProcess): <Reply>(message: object) => Promise<Reply> {
  let next = 0;
  return <Reply>(message: object) =>
    new Promise<Reply>((resolve, reject) => {
      const id = (next += 1);
      const answer = (reply: { id?: unknown } | null) => {
        if (reply?.id !== id) return;
        child.off('message', answer);
        resolve(reply as Reply);
      };
      child.on('message', answer);
      void exited.then((signal) => reject(new Error(`the process ended (${signal ?? child.exitCode}) before it answered`)));
      child.send({ ...message, id });
    });
}

/** Ends a forked process that still runs: cleanly (it closes when its IPC channel does), or SIGKILL. */
export async function endProcess(forked: ForkedProcess | undefined, how: 'disconnect' | 'SIGKILL' = 'disconnect'): Promise<void> {
  if (forked === undefined || forked.child.exitCode !== null || forked.child.signalCode !== null) return;
  if (how === 'SIGKILL') forked.child.kill('SIGKILL');
  else forked.child.disconnect();
  await forked.exited;
}
