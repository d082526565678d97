import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, type Logger, type MerchantOrder, type PaymentRoutes } from '@paymount/core';
import { createPostgresStores, fromPg, inTransaction, migrate, type PostgresDatabase, type PostgresQueryable } from '../../src';
import { testPool } from '../../../../tools/postgres-pool';

/**
 * The merchant's own tables: its orders, and a log with one row per effect
 * its "mark paid" handler applied, so a handler that ran twice shows.
 */
export const SHOP_TABLES = `
CREATE TABLE IF NOT EXISTS shop_orders (id text PRIMARY KEY, amount integer NOT NULL, paid_count integer NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS shop_effects (id serial PRIMARY KEY, order_id text NOT NULL, transaction_id text NOT NULL)`;

/** Where a crash may be asked for in the handler's transaction (see ShopConfig.crashAt). */
export const CRASH_POINTS = ['before-write', 'after-write', 'before-commit', 'after-commit'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

export interface ShopConfig {
  sandbox: { url: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string };
  databaseUrl: string;
  /** Where it listens (a fixed port, so a restarted shop gets the deliveries meant for the one that died). */
  port: number;
  processingTtlMs: number;
  /** Where the service sends this shop's webhooks; default its own /payments/webhook. */
  notifyUrl?: string;
  /** SIGKILL this process there, in the first handler transaction that reaches it. */
  crashAt?: CrashPoint;
  /**
   * The client's time limits and the order lock's lease (default: core's,
   * a 210 s lease): short, so a lock a dead process held lapses within a test.
   */
  timing?: { timeoutMs: number; deadlineMs: number; lockTtlMs: number };
}

export interface Shop {
  /** `http://127.0.0.1:<port>/payments` */
  routesUrl: string;
  paymentRoutes: PaymentRoutes;
  db: PostgresDatabase;
  close(): Promise<void>;
}

/**
 * `db` whose transactions pass `crash` the points around their commit: after
 * the handlers and paymount's mark (before COMMIT), and after COMMIT.
 */
function withCommitHooks(db: PostgresDatabase, crash: (point: CrashPoint) => void): PostgresDatabase {
  return {
    query: (text, params) => db.query(text, params),
    async transaction(fn) {
      const result = await db.transaction(async (tx) => {
        const out = await fn(tx);
        crash('before-commit');
        return out;
      });
      crash('after-commit');
      return result;
    },
  };
}

/** Marks the order paid, in paymount's transaction: one effect row, one increment. */
async function markPaid(db: PostgresQueryable, orderId: string, transactionId: string, crash: (point: CrashPoint) => void) {
  crash('before-write');
  await db.query('INSERT INTO shop_effects (order_id, transaction_id) VALUES ($1, $2)', [orderId, transactionId]);
  await db.query('UPDATE shop_orders SET paid_count = paid_count + 1 WHERE id = $1', [orderId]);
  crash('after-write');
}

/**
 * A merchant app as a merchant writes it: a pg Pool, both paymount stores
 * in its database, the routes on a plain node:http server at /payments, and
 * a "mark paid" handler that writes in paymount's transaction.
 */
export async function startShop(config: ShopConfig, logger: Logger | false = false): Promise<Shop> {
  const pool = testPool(config.databaseUrl, { max: 10 });
  const crash = (point: CrashPoint) => {
    if (point === config.crashAt) process.kill(process.pid, 'SIGKILL');
  };
  const base = fromPg(pool);
  // Migrated at start-up, outside the crash hooks: the only transactions they see are the handlers'.
  await migrate(base);
  const db = withCommitHooks(base, crash);
  const stores = createPostgresStores(db, { migrate: false });
  const resolveOrder = async (orderId: string): Promise<MerchantOrder | null> => {
    const { rows } = await db.query<{ amount: number }>('SELECT amount FROM shop_orders WHERE id = $1', [orderId]);
    const order = rows[0];
    return order ? { referenceOrderId: orderId, amount: { orderAmount: order.amount, priceCurrency: 'USD' }, description: 'A shop order' } : null;
  };
  const routesUrl = `http://127.0.0.1:${config.port}/payments`;
  const { apiKey, url: baseUrl, appId, merchantId } = config.sandbox;
  const { timing } = config;
  const middleware = createNodeMiddleware(
    {
      client: { apiKey, baseUrl, appId, merchantId, localDevelopment: true, ...(timing ? { timeoutMs: timing.timeoutMs, deadlineMs: timing.deadlineMs } : {}) },
      resolveOrder,
      notifyUrl: config.notifyUrl ?? `${routesUrl}/webhook`,
      webhook: { secret: config.sandbox.webhookSecret, processingTtlMs: config.processingTtlMs },
      store: stores.idempotency,
      orders: { store: stores.orders, ...(timing ? { lockTtlMs: timing.lockTtlMs } : {}) },
      on: {
        'payment.succeeded': inTransaction(async (event, { db: tx }) =>
          markPaid(tx, event.referenceOrderId ?? '-', event.transactionId ?? '-', crash),
        ),
      },
      logger,
    },
    { mountPath: '/payments' },
  );
  const server: Server = createServer(middleware);
  server.listen(config.port, '127.0.0.1');
  await once(server, 'listening');
  return {
    routesUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`,
    paymentRoutes: middleware.paymentRoutes,
    db,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      await middleware.paymentRoutes.close();
      await pool.end();
    },
  };
}
