/**
 * The shop (./shop.ts) in a process of its own, for the crash tests:
 * configured by PAYMOUNT_SHOP (JSON ShopConfig), it reports `listening` over
 * IPC and runs until killed (by the test, or by itself at config.crashAt).
 */
import { consoleLogger } from '@paymount/core';
import { startShop, type ShopConfig } from './shop';

const config = JSON.parse(process.env.PAYMOUNT_SHOP ?? 'null') as ShopConfig | null;
if (config === null) throw new Error('PAYMOUNT_SHOP is not set');
if (!process.send) throw new Error('shop-process must be started with an IPC channel (fork)');

const shop = await startShop(config, process.env.PAYMOUNT_SHOP_LOG === '1' ? consoleLogger : false);
process.on('disconnect', () => {
  void shop.close().finally(() => process.exit(0));
});
process.send({ kind: 'listening', routesUrl: shop.routesUrl });
