import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Order } from '../../src/orders';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./pglite-shop-process.ts', import.meta.url));

export interface KilledShopConfig {
  /** The PGlite data folder: the same across the shop's restarts. */
  dataDir: string;
  /** Where it listens, the same across restarts: the webhooks of its payments are sent there. */
  port: number;
  sandbox: { url: string; webhookSecret: string; gatewayId: string; client: { apiKey: string; baseUrl: string; appId: string; merchantId: string } };
  /** SIGKILL the process in the first payment handler's transaction, after its write. */
  killMidTransaction?: boolean;
}

/** The messages between the test and the shop process. */
export type ToKilledShop = { kind: 'create-order'; id: number } | { kind: 'get-order'; id: number; orderId: string };
export type FromKilledShop = { kind: 'listening' } | { kind: 'order'; id: number; order: Order | null };

export interface KilledShopProcess {
  child: ChildProcess;
  /** Resolves with the signal that ended it (SIGKILL), or null for an exit. */
  exited: Promise<NodeJS.Signals | null>;
  createOrder(): Promise<Order>;
  getOrder(orderId: string): Promise<Order | null>;
}

/** Forks the shop (TypeScript through tsx); resolves once it listens. */
export async function startKilledShop(config: KilledShopConfig): Promise<KilledShopProcess> {
  const child = fork(script, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_SHOP: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  await new Promise<void>((resolve, reject) => {
    void exited.then((signal) => reject(new Error(`the shop process ended (${signal ?? child.exitCode}) before listening`)));
    child.on('message', (message: FromKilledShop) => {
      if (message.kind === 'listening') resolve();
    });
  });
  let next = 0;
  const ask = (message: ToKilledShop) =>
    new Promise<Order | null>((resolve, reject) => {
      const answer = (reply: FromKilledShop) => {
        if (reply.kind !== 'order' || reply.id !== message.id) return;
        child.off('message', answer);
        resolve(reply.order);
      };
      child.on('message', answer);
      void exited.then((signal) => reject(new Error(`the shop process ended (${signal ?? child.exitCode})`)));
      child.send(message);
    });
  return {
    child,
    exited,
    createOrder: async () => (await ask({ kind: 'create-order', id: (next += 1) }))!,
    getOrder: (orderId) => ask({ kind: 'get-order', id: (next += 1), orderId }),
  };
}

/** SIGKILL, unless it has ended already. */
export async function killShop(shop: KilledShopProcess | undefined): Promise<void> {
  if (shop === undefined || shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  shop.child.kill('SIGKILL');
  await shop.exited;
}
