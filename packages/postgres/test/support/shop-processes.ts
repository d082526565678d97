import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ShopConfig } from './shop';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./shop-process.ts', import.meta.url));

export interface ShopProcess {
  child: ChildProcess;
  routesUrl: string;
  /** Resolves with the signal that ended it (SIGKILL for a crash), or null for an exit. */
  exited: Promise<NodeJS.Signals | null>;
}

/** Forks the shop (TypeScript through tsx); resolves once it listens. */
export async function startShopProcess(config: ShopConfig): Promise<ShopProcess> {
  const child = fork(script, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_SHOP: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  const routesUrl = await new Promise<string>((resolve, reject) => {
    void exited.then((signal) => reject(new Error(`the shop process ended (${signal ?? child.exitCode}) before listening`)));
    child.on('message', (message: { kind: string; routesUrl: string }) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
    });
  });
  return { child, routesUrl, exited };
}

/** Ends a shop process that is still running: cleanly (disconnect), or SIGKILL. */
export async function stopShopProcess(shop: ShopProcess | undefined, how: 'disconnect' | 'SIGKILL' = 'disconnect'): Promise<void> {
  if (shop === undefined || shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  if (how === 'SIGKILL') shop.child.kill('SIGKILL');
  else shop.child.disconnect();
  await shop.exited;
}
