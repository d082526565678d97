import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { MerchantProcessConfig, ProcessMessage } from './records';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./merchant-process.ts', import.meta.url));

export interface MerchantProcess {
  child: ChildProcess;
  pid: number;
  routesUrl: string | undefined;
  /** Every run this process started, in order. */
  started: Array<{ key: string; pid: number }>;
  /** Every effect its runs wrote, in order. */
  wrote: Array<{ key: string; pid: number }>;
}

/** Forks a merchant process (TypeScript through tsx) and resolves once it serves or works. */
export async function startMerchantProcess(config: MerchantProcessConfig): Promise<MerchantProcess> {
  const child = fork(script, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_PROCESS: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started: MerchantProcess['started'] = [];
  const wrote: MerchantProcess['wrote'] = [];
  const routesUrl = await new Promise<string | undefined>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`merchant process exited with ${code} before it was ready`)));
    child.on('message', (message: ProcessMessage) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
      else (message.kind === 'started' ? started : wrote).push({ key: message.key, pid: message.pid });
    });
  });
  return { child, pid: child.pid ?? 0, routesUrl, started, wrote };
}

/** Asks a process to close (it does on disconnect) and waits for it; one already dead is left as is. */
export async function stopMerchantProcess({ child }: MerchantProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.disconnect();
  await exited;
}

export async function killMerchantProcess({ child }: MerchantProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
