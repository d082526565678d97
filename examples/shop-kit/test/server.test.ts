import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@paymount/core';
import { afterEach, expect, it } from 'vitest';
import { readShopConfig } from '../src/config';
import { startShopServer, type RunningShop } from '../src/server';
import { MOUNT_PATH } from '../src/shop';
import { nodeApp } from './support/node-app';
import { freePort } from '../../../tools/free-port';
import { pgliteDataDir, type PGliteDataDir } from '../../../tools/pglite-data-dir';

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const running: RunningShop[] = [];
const folders: PGliteDataDir[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((shop) => shop.close()));
  for (const folder of folders.splice(0)) folder.remove();
});

/** The shop starts its own database (PGlite, WebAssembly): seconds on a busy machine, before the test's own waits. */
const START_AND_RECONCILE_MS = 60_000;

it('reconciles on a schedule: an order paid while no webhook could reach the shop ends paid', async () => {
  const dataDir = await pgliteDataDir();
  folders.push(dataDir);
  const options = { config: { ...readShopConfig({}), port: 0 }, logger: silent, reconcileEveryMs: 50, dataDir: dataDir.dir };
  // The service sends this shop no webhook at all: only reconciliation can tell it.
  const started = await startShopServer('Test shop', options, (shop) => nodeApp(shop, { notifyUrl: () => undefined }));
  running.push(started);
  const sandbox = started.sandbox!;
  const order = await started.shop.orders.create(started.shop.catalog[0]!);
  const paid = await fetch(`${started.url}${MOUNT_PATH}/wallet/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: order.id, token: sandbox.mintWalletToken() }),
  });
  expect(await paid.json()).toMatchObject({ status: 'succeeded' });
  await sleep(200);
  const status = async () => (await started.shop.orders.get(order.id))?.status;
  expect(await status()).toBe('pending');
  // Reconciliation looks at payments a minute old (service time).
  sandbox.clock.advance(61_000);
  // A run every 50 ms; a busy machine may take seconds to get one through.
  for (const giveUpAt = Date.now() + 10_000; Date.now() < giveUpAt && (await status()) !== 'paid'; ) await sleep(20);
  expect(await status()).toBe('paid');
  expect(sandbox.deliveries()).toEqual([]);
}, START_AND_RECONCILE_MS);

it('a DATABASE_URL whose server does not answer stops the start with what to fix, and no password in it', async () => {
  const port = await freePort();
  const config = { ...readShopConfig({ DATABASE_URL: `postgres://shop:s3cret@127.0.0.1:${port}/shop` }), port: 0 };
  const failed = startShopServer('Test shop', { config, logger: silent }, (shop) => nodeApp(shop));
  await expect(failed).rejects.toThrow(
    new RegExp(`^The shop's database \\(PostgreSQL at 127\\.0\\.0\\.1:${port}/shop\\) could not be prepared: .*ECONNREFUSED.*Fix: check that the server runs and that DATABASE_URL names it`),
  );
  await expect(failed).rejects.not.toThrow(/s3cret/);
});
