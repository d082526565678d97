import { signWebhook } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { fromPg, migrate } from '../src';
import { CRASH_POINTS, SHOP_TABLES, type ShopConfig } from './support/shop';
import { startShopProcess, stopShopProcess, type ShopProcess } from './support/shop-processes';

const PROCESSING_TTL_MS = 1_000;

describe.skipIf(postgresSkipped)('a shop process killed with SIGKILL in its "mark paid" handler, then redelivered', () => {
  let server: PostgresServer;
  let admin: pg.Pool;
  let sandbox: Sandbox;
  let config: ShopConfig;
  let shop: ShopProcess | undefined;

  beforeAll(async () => {
    server = await startPostgresServer();
    admin = new pg.Pool({ connectionString: server.url, max: 2 });
    admin.on('error', () => {});
    await migrate(fromPg(admin));
    await admin.query(SHOP_TABLES);
    // Retries reach past the processing TTL, after which a dead shop's claim is taken over.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400, 800, 1_600, 3_200] });
    config = {
      sandbox: { url: sandbox.url, apiKey: sandbox.apiKey, appId: sandbox.appId, merchantId: sandbox.merchantId, webhookSecret: sandbox.webhookSecret },
      databaseUrl: server.url,
      port: await freePort(),
      processingTtlMs: PROCESSING_TTL_MS,
    };
  }, 60_000);

  afterAll(async () => {
    await stopShopProcess(shop, 'SIGKILL');
    await sandbox?.close();
    await admin?.end();
    server?.destroy();
  });

  const addOrder = (id: string) => admin.query('INSERT INTO shop_orders (id, amount) VALUES ($1, 1250)', [id]);

  /** POST /wallet/pay; undefined when the shop died before answering. */
  async function pay(orderId: string): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
    const routesUrl = `http://127.0.0.1:${config.port}/payments`;
    try {
      const response = await fetch(`${routesUrl}/wallet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return undefined;
    }
  }

  /** The shop's effects of `orderId`: one row per run of its handler that committed. */
  async function effectsOf(orderId: string) {
    const effects = await admin.query('SELECT transaction_id FROM shop_effects WHERE order_id = $1', [orderId]);
    const order = await admin.query('SELECT paid_count FROM shop_orders WHERE id = $1', [orderId]);
    return { effects: effects.rows.map((row) => row.transaction_id as string), paidCount: order.rows[0]?.paid_count as number };
  }

  const deliveryOf = (transactionId: string): Delivery | undefined =>
    sandbox.deliveries().find((delivery) => JSON.parse(delivery.body).transactionId === transactionId);

  const chargeOf = (orderId: string) => {
    const charges = sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);
    expect(charges.map((charge) => charge.transactionStatus)).toEqual(['S']);
    return charges[0]!;
  };

  it.each(CRASH_POINTS)('killed %s: the merchant table holds the effect exactly once, and more redeliveries add nothing', async (point) => {
    const orderId = `crash-${point}`;
    await addOrder(orderId);
    shop = await startShopProcess({ ...config, crashAt: point });
    await pay(orderId);
    expect(await shop.exited).toBe('SIGKILL');
    const charge = chargeOf(orderId);
    // What the dead process left: the effect with its mark (after commit), or neither.
    const left = await effectsOf(orderId);
    expect(left.effects).toEqual(point === 'after-commit' ? [charge.transactionId] : []);

    shop = await startShopProcess(config);
    await sandbox.waitForDeliveries(30_000);
    const delivery = deliveryOf(charge.transactionId);
    expect(delivery?.state).toBe('delivered');
    // Deliveries during the dead process's lease were told to retry (409); none ran the handler twice.
    const resent = await sandbox.resend(delivery!.deliveryId);
    expect(resent.state).toBe('delivered');
    expect(await pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });

    expect(await effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
    expect(sandbox.charges().filter((c) => c.referenceOrderId === orderId)).toHaveLength(1);
    await stopShopProcess(shop);
  });

  it('a database server crash and restart between payments loses nothing: paid orders stay paid, handled events stay handled', async () => {
    shop = await startShopProcess(config);
    const before = ['restart-1', 'restart-2', 'restart-3'];
    for (const orderId of before) {
      await addOrder(orderId);
      expect(await pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    }
    await addOrder('restart-4');
    await sandbox.waitForDeliveries(30_000);

    server.stop('immediate');
    // While it is down: a payment fails before anything is sent (the shop's own order lookup fails first), and a webhook is told to come back.
    expect([500, 503]).toContain((await pay('restart-4'))?.status);
    expect(sandbox.charges().filter((charge) => charge.referenceOrderId === 'restart-4')).toEqual([]);
    const handled = deliveryOf(chargeOf('restart-1').transactionId)!;
    const { body, headers } = signWebhook({ rawBody: handled.body, secret: sandbox.webhookSecret, deliveryId: 'while-down' });
    const whileDown = await fetch(`http://127.0.0.1:${config.port}/payments/webhook`, { method: 'POST', headers, body });
    expect(whileDown.status).toBe(503);

    server.start();
    for (const orderId of before) {
      const delivery = deliveryOf(chargeOf(orderId).transactionId)!;
      expect((await sandbox.resend(delivery.deliveryId)).state).toBe('delivered');
      expect(await pay(orderId)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
    }
    expect(await pay('restart-4')).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await sandbox.waitForDeliveries(30_000);
    for (const orderId of [...before, 'restart-4']) {
      expect(await effectsOf(orderId)).toEqual({ effects: [chargeOf(orderId).transactionId], paidCount: 1 });
    }
    await stopShopProcess(shop);
  });
});
