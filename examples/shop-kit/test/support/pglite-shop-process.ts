/**
 * A shop keeping its orders in PGlite in a data folder, in a process of its
 * own, for the tests that kill it with SIGKILL (../killed-shop.test.ts).
 * Configured by PAYMOUNT_SHOP (JSON KilledShopConfig); its payment service is
 * the test's sandbox, in the test process, so payments and their webhooks
 * outlive the shop. Over IPC it reports `listening`, and creates and reads
 * orders (PGlite serves this process only).
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { Logger, PaymentEvent } from '@paymount/core';
import type { PostgresQueryable } from '@paymount/postgres';
import type { Sandbox } from '@paymount/sandbox';
import { readShopConfig } from '../../src/config';
import { consoleLogger } from '../../src/console-logger';
import { Shop } from '../../src/shop';
import { migrateShopDatabase, openShopDatabase } from '../../src/shop-database';
import { nodeApp } from './node-app';
import type { FromKilledShop, KilledShopConfig, ToKilledShop } from './pglite-shop-processes';

const config = JSON.parse(process.env.PAYMOUNT_SHOP ?? 'null') as KilledShopConfig | null;
if (config === null) throw new Error('PAYMOUNT_SHOP is not set');
const send = (message: FromKilledShop) => {
  if (!process.send) throw new Error('pglite-shop-process must be started with an IPC channel (fork)');
  process.send(message);
};

/** The shop, killed (SIGKILL) inside the handler's transaction once the order's row is written, before the commit. */
class KilledMidTransaction extends Shop {
  override async recordPaymentEvent(event: PaymentEvent, db: PostgresQueryable): Promise<void> {
    await super.recordPaymentEvent(event, db);
    process.kill(process.pid, 'SIGKILL');
  }
}

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const logger = process.env.PAYMOUNT_SHOP_LOG === '1' ? consoleLogger() : silent;
const database = await openShopDatabase({ kind: 'pglite', dataDir: config.dataDir }, logger);
await migrateShopDatabase(database);
const clock = { now: () => Date.now() };
// The parts of a sandbox the shop reads (its URL, credentials and clock): the service itself runs in the test process.
const service = {
  url: config.sandbox.url,
  webhookSecret: config.sandbox.webhookSecret,
  gatewayId: config.sandbox.gatewayId,
  clock,
  clientOptions: () => ({ ...config.sandbox.client, localDevelopment: true as const, clock }),
} satisfies Partial<Record<keyof Sandbox, unknown>>;
const setup = {
  name: 'Killed shop',
  config: { ...readShopConfig({}), port: config.port },
  publicUrl: `http://127.0.0.1:${config.port}`,
  sandbox: service as unknown as Sandbox,
  logger,
  db: database.db,
};
const shop = config.killMidTransaction ? new KilledMidTransaction(setup) : new Shop(setup);
const server = createServer(nodeApp(shop).listener);
server.listen(config.port, '127.0.0.1');
await once(server, 'listening');

process.on('message', (message: ToKilledShop) => {
  const answer = message.kind === 'create-order' ? shop.orders.create(shop.catalog[0]!) : shop.orders.get(message.orderId);
  void answer.then((order) => send({ kind: 'order', id: message.id, order: order ?? null }));
});
process.on('disconnect', () => {
  void database.close().finally(() => process.exit(0));
});
send({ kind: 'listening' });
