import { signWebhook } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { SHOP_TABLES, startShop, type Shop } from './support/shop';
import { testPool } from '../../../tools/postgres-pool';

describe.skipIf(postgresSkipped)('reconciliation hands an outcome to the "mark paid" handler through the same transaction', () => {
  let server: PostgresServer;
  let admin: pg.Pool;
  let sandbox: Sandbox;
  let shop: Shop;

  beforeAll(async () => {
    server = await startPostgresServer();
    admin = testPool(server.url, { max: 2 });
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [] });
    shop = await startShop({
      sandbox: { url: sandbox.url, apiKey: sandbox.apiKey, appId: sandbox.appId, merchantId: sandbox.merchantId, webhookSecret: sandbox.webhookSecret },
      databaseUrl: server.url,
      port: await freePort(),
      processingTtlMs: 1_000,
      // Nothing listens there: every webhook is lost, and only reconciliation tells the shop.
      notifyUrl: `http://127.0.0.1:${await freePort()}/webhook`,
    });
    await admin.query(SHOP_TABLES);
  });

  afterAll(async () => {
    await shop?.close();
    await sandbox?.close();
    await admin?.end();
    server?.destroy();
  });

  it('a payment whose webhook never arrived is marked paid once by reconcile(), and again by neither reconcile() nor a late webhook', async () => {
    await admin.query("INSERT INTO shop_orders (id, amount) VALUES ('lost-webhook', 1250)");
    const paid = await fetch(`${shop.routesUrl}/wallet/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'lost-webhook', token: sandbox.mintWalletToken() }),
    });
    expect(paid.status).toBe(200);
    await sandbox.waitForDeliveries(10_000);
    expect(sandbox.deliveries().map((delivery) => delivery.state)).toEqual(['failed']);
    const effects = async () => (await admin.query("SELECT transaction_id FROM shop_effects WHERE order_id = 'lost-webhook'")).rows;
    expect(await effects()).toEqual([]);

    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ checked: 1, settled: 1, errors: 0 });
    const [charge] = sandbox.charges();
    expect(await effects()).toEqual([{ transaction_id: charge?.transactionId }]);

    expect(await shop.paymentRoutes.reconcile({ olderThanMs: 0 })).toMatchObject({ checked: 0 });
    // The webhook, arriving late at last: its event is the one reconciliation handled.
    const { body, headers } = signWebhook({ rawBody: sandbox.deliveries()[0]!.body, secret: sandbox.webhookSecret, deliveryId: 'late' });
    const late = await fetch(`${shop.routesUrl}/webhook`, { method: 'POST', headers, body });
    expect(await late.json()).toEqual({ received: true, duplicate: true });
    expect(await effects()).toEqual([{ transaction_id: charge?.transactionId }]);
  });
});
