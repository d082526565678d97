/**
 * The shop (./shop.ts) in a process of its own, for the crash tests:
 * configured by PAYMOUNT_SHOP (JSON ShopConfig), it reports `listening` over
 * IPC, runs reconcile() when asked, and runs until killed (by the test, or
 * by itself at config.crashAt).
 */
import { consoleLogger } from '@paymount/core';
import { startShop, type ShopConfig } from './shop';
import type { FromShop, ToShop } from './shop-processes';

const config = JSON.parse(process.env.PAYMOUNT_SHOP ?? 'null') as ShopConfig | null;
if (config === null) throw new Error('PAYMOUNT_SHOP is not set');
if (!process.send) throw new Error('shop-process must be started with an IPC channel (fork)');
const send = (message: FromShop) => process.send?.(message);

const shop = await startShop(config, process.env.PAYMOUNT_SHOP_LOG === '1' ? consoleLogger : false);
process.on('message', (message: ToShop) => {
  if (message.kind !== 'reconcile') return;
  shop.paymentRoutes.reconcile({ olderThanMs: 0 }).then(
    (summary) => send({ kind: 'reconciled', id: message.id, summary }),
    (error: unknown) => send({ kind: 'reconciled', id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => {
  void shop.close().finally(() => process.exit(0));
});
send({ kind: 'listening', routesUrl: shop.routesUrl });
