import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ReconcileSummary } from '@paymount/core';
import type { ShopConfig } from './shop';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./shop-process.ts', import.meta.url));

/** The messages between a test and a shop process. */
export type ToShop = { kind: 'reconcile'; id: number };
export type FromShop = { kind: 'listening'; routesUrl: string } | { kind: 'reconciled'; id: number; summary?: ReconcileSummary; error?: string };

export interface ShopProcess {
  child: ChildProcess;
  routesUrl: string;
  /** Resolves with the signal that ended it (SIGKILL for a crash), or null for an exit. */
  exited: Promise<NodeJS.Signals | null>;
  /** The shop's paymentRoutes.reconcile({ olderThanMs: 0 }); rejects when it fails or the process ends first. */
  reconcile(): Promise<ReconcileSummary>;
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
    child.on('message', (message: FromShop) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
    });
  });
  let next = 0;
  const reconcile = () =>
    new Promise<ReconcileSummary>((resolve, reject) => {
      const id = (next += 1);
      const answer = (message: FromShop) => {
        if (message.kind !== 'reconciled' || message.id !== id) return;
        child.off('message', answer);
        if (message.summary) resolve(message.summary);
        else reject(new Error(message.error ?? 'reconcile failed in the shop process'));
      };
      child.on('message', answer);
      void exited.then((signal) => reject(new Error(`the shop process ended (${signal ?? child.exitCode}) while reconciling`)));
      child.send({ kind: 'reconcile', id } satisfies ToShop);
    });
  return { child, routesUrl, exited, reconcile };
}

/** Ends a shop process that is still running: cleanly (disconnect), or SIGKILL. */
export async function stopShopProcess(shop: ShopProcess | undefined, how: 'disconnect' | 'SIGKILL' = 'disconnect'): Promise<void> {
  if (shop === undefined || shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  if (how === 'SIGKILL') shop.child.kill('SIGKILL');
  else shop.child.disconnect();
  await shop.exited;
}
