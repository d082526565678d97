import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, type PaymentRoutes } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStores, inTransaction } from '../src';
import { pglite, type Connection } from './support/databases';

// PGlite (like one pg.Client) runs one thing at a time: a query sent outside the handlers'
// transaction while it is open waits for it. The routes read the order's attempt through the
// order store for the handlers, so they must do it before that transaction opens, or it never ends.
let connection: Connection;
let sandbox: Sandbox;
let server: Server;
let paymentRoutes: PaymentRoutes;
let routesUrl: string;
const marked: Array<{ orderId: string; issued: boolean | undefined }> = [];

beforeAll(async () => {
  connection = await pglite();
  await connection.db.query('CREATE TABLE paid_orders (id text PRIMARY KEY)');
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [] });
  const stores = createPostgresStores(connection.db);
  server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  routesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`;
  const middleware = createNodeMiddleware(
    {
      client: sandbox.clientOptions(),
      resolveOrder: async (orderId) => ({ referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'A mug' }),
      notifyUrl: `${routesUrl}/webhook`,
      webhook: { secret: sandbox.webhookSecret },
      store: stores.idempotency,
      orders: { store: stores.orders },
      on: {
        'payment.succeeded': inTransaction(async (event, { db }) => {
          await db.query('INSERT INTO paid_orders (id) VALUES ($1)', [event.referenceOrderId]);
          marked.push({ orderId: event.referenceOrderId ?? '', issued: event.attempt?.issued });
        }),
      },
      logger: false,
    },
    { mountPath: '/payments' },
  );
  paymentRoutes = middleware.paymentRoutes;
  server.on('request', middleware);
});

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await paymentRoutes?.close();
  await sandbox?.close();
  await connection?.close();
});

it('PGlite with both stores: a paid order’s webhook runs the transactional handler, with its attempt, and commits', async () => {
  const paid = await fetch(`${routesUrl}/wallet/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: 'ord_one_connection', token: sandbox.mintWalletToken() }),
  });
  expect(await paid.json()).toMatchObject({ status: 'succeeded' });
  await sandbox.waitForDeliveries(15_000);
  expect(sandbox.deliveries().map((delivery) => delivery.attempts.at(-1)?.status)).toEqual([200]);
  expect(marked).toEqual([{ orderId: 'ord_one_connection', issued: true }]);
  const { rows } = await connection.db.query('SELECT id FROM paid_orders');
  expect(rows).toEqual([{ id: 'ord_one_connection' }]);
});
