import { fileURLToPath } from 'node:url';
import type { ReconcileSummary } from '@paymount/core';
import { endProcess, forkTypeScript, ipcRequests, type ForkedProcess } from '../../../../tools/forked-process';
import type { ShopConfig } from './shop';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./shop-process.ts', import.meta.url));

/** The messages between a test and a shop process. */
export type ToShop = { kind: 'reconcile'; id: number };
export type FromShop = { kind: 'listening'; routesUrl: string } | { kind: 'reconciled'; id: number; summary?: ReconcileSummary; error?: string };

export interface ShopProcess extends ForkedProcess {
  routesUrl: string;
  /** The shop's paymentRoutes.reconcile({ olderThanMs: 0 }); rejects when it fails or the process ends first. */
  reconcile(): Promise<ReconcileSummary>;
}

/** Forks the shop (TypeScript through tsx); resolves once it listens. */
export async function startShopProcess(config: ShopConfig): Promise<ShopProcess> {
  const forked = await forkTypeScript(script, { cwd: packageDir, env: { PAYMOUNT_SHOP: JSON.stringify(config) } }, (message: FromShop) =>
    message.kind === 'listening' ? message.routesUrl : undefined,
  );
  const request = ipcRequests(forked);
  return {
    ...forked,
    routesUrl: forked.ready,
    async reconcile() {
      const { summary, error } = await request<Extract<FromShop, { kind: 'reconciled' }>>({ kind: 'reconcile' });
      if (summary === undefined) throw new Error(error ?? 'reconcile failed in the shop process');
      return summary;
    },
  };
}

/** Ends a shop process that is still running: cleanly (disconnect), or SIGKILL. */
export const stopShopProcess = (shop: ShopProcess | undefined, how: 'disconnect' | 'SIGKILL' = 'disconnect') => endProcess(shop, how);
