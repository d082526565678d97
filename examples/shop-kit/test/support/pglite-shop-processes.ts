import { fileURLToPath } from 'node:url';
import { forkTypeScript, ipcRequests, type ForkedProcess } from '../../../../tools/forked-process';
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

/** The messages between the test and the shop process (each request with an id, which its answer carries back). */
type OrderRequest = { kind: 'create-order' } | { kind: 'get-order'; orderId: string };
export type ToKilledShop = OrderRequest & { id: number };
export type FromKilledShop = { kind: 'listening' } | { kind: 'order'; id: number; order: Order | null };

export interface KilledShopProcess extends ForkedProcess {
  createOrder(): Promise<Order>;
  getOrder(orderId: string): Promise<Order | null>;
}

/** Forks the shop (TypeScript through tsx); resolves once it listens. */
export async function startKilledShop(config: KilledShopConfig): Promise<KilledShopProcess> {
  const forked = await forkTypeScript(script, { cwd: packageDir, env: { PAYMOUNT_SHOP: JSON.stringify(config) } }, (message: FromKilledShop) =>
    message.kind === 'listening' ? true : undefined,
  );
  const request = ipcRequests(forked);
  const orderOf = async (message: OrderRequest) => (await request<Extract<FromKilledShop, { kind: 'order' }>>(message)).order;
  return {
    ...forked,
    createOrder: async () => (await orderOf({ kind: 'create-order' }))!,
    getOrder: (orderId) => orderOf({ kind: 'get-order', orderId }),
  };
}
