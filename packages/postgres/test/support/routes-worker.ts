// A merchant's Worker as the edge runs it: the payment routes made afresh for every request (as a fresh
// isolate makes them), their stores in PostgreSQL through postgres.js over `cloudflare:sockets`.
import { createFetchHandler } from '@paymount/core';
import { createPostgresStores, fromPostgresJs, inTransaction } from '@paymount/postgres';
import postgres from 'postgres';

export interface RoutesWorkerService {
  baseUrl: string;
  apiKey: string;
  appId: string;
  merchantId: string;
  webhookSecret: string;
  gatewayId: string;
  /** Where this Worker is served: its notify URL's origin. */
  selfUrl: string;
}

interface Env {
  DATABASE_URL: string;
  /** RoutesWorkerService, as JSON. */
  SERVICE: string;
}

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const service = JSON.parse(env.SERVICE) as RoutesWorkerService;
    const sql = postgres(env.DATABASE_URL, { max: 4, fetch_types: false, onnotice: () => {} });
    const stores = createPostgresStores(fromPostgresJs(sql));
    const payments = createFetchHandler(
      {
        client: { apiKey: service.apiKey, baseUrl: service.baseUrl, appId: service.appId, merchantId: service.merchantId, localDevelopment: true },
        // The merchant's orders live in the same database, so every isolate sees them.
        resolveOrder: async (orderId) => {
          const [order] = await sql<{ id: string; amount: number; paid: boolean }[]>`SELECT id, amount::int AS amount, paid_at IS NOT NULL AS paid FROM shop_orders WHERE id = ${orderId}`;
          if (order === undefined) return null;
          return { referenceOrderId: order.id, amount: { orderAmount: order.amount, priceCurrency: 'USD' }, description: 'Edge order', payable: !order.paid };
        },
        notifyUrl: () => `${service.selfUrl}/payments/webhook`,
        merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
        wallet: { gatewayId: service.gatewayId, merchantName: 'Edge Shop' },
        webhook: { secret: service.webhookSecret },
        store: stores.idempotency,
        orders: { store: stores.orders },
        on: {
          'payment.succeeded': inTransaction(async (event, { db }) => {
            await db.query('INSERT INTO shop_effects (order_id, transaction_id) VALUES ($1, $2)', [event.referenceOrderId, event.transactionId]);
            await db.query('UPDATE shop_orders SET paid_at = now() WHERE id = $1', [event.referenceOrderId]);
            // Counted outside the transaction, so a run that rolls back is counted too.
            const [counted] = await sql<{ runs: number }[]>`
              INSERT INTO shop_handler_runs (order_id, runs) VALUES (${event.referenceOrderId ?? ''}, 1)
              ON CONFLICT (order_id) DO UPDATE SET runs = shop_handler_runs.runs + 1 RETURNING runs`;
            if (event.referenceOrderId?.startsWith('throws-') === true && counted?.runs === 1) throw new Error('the handler failed after writing');
          }),
        },
      },
      { mountPath: '/payments' },
    );
    try {
      return await payments(request);
    } finally {
      ctx.waitUntil(sql.end({ timeout: 5 }));
    }
  },
};
