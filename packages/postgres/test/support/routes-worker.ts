// A merchant's Worker as the edge runs it: the payment routes made afresh for every request (as a fresh
// isolate makes them), their stores in PostgreSQL through postgres.js over `cloudflare:sockets`, or through
// Neon's serverless Pool over a WebSocket.
import { neonConfig, Pool } from '@neondatabase/serverless';
import { createFetchHandler } from '@paymount/core';
import { createPostgresStores, fromNeon, fromPostgresJs, inTransaction, type PostgresDatabase } from '@paymount/postgres';
import postgres from 'postgres';
import type { SandboxService } from '../../../../tools/sandbox-service';

/** The sandbox, and where this Worker is served: its notify URL's origin. */
export interface RoutesWorkerService extends SandboxService {
  selfUrl: string;
}

export type EdgeDriver = 'postgres.js' | 'Neon Pool over WebSocket';

interface Env {
  DATABASE_URL: string;
  DRIVER: EdgeDriver;
  /** For Neon: the host of the WebSocket relay standing in for Neon's proxy (tools/pg-websocket-relay.ts). */
  NEON_RELAY_HOST: string;
  /** RoutesWorkerService, as JSON. */
  SERVICE: string;
}

/** A connection made in the request, as on Workers (a socket cannot outlive it), and how to end it. */
function connect(env: Env): { db: PostgresDatabase; end(): Promise<void> } {
  if (env.DRIVER === 'postgres.js') {
    const sql = postgres(env.DATABASE_URL, { max: 4, fetch_types: false, onnotice: () => {} });
    return { db: fromPostgresJs(sql), end: () => sql.end({ timeout: 5 }) };
  }
  // A relay speaks plain ws:// and no TLS; Neon's own proxy is wss:// (the defaults).
  neonConfig.wsProxy = () => `${env.NEON_RELAY_HOST}/v1`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  return { db: fromNeon(pool), end: () => pool.end() };
}

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const service = JSON.parse(env.SERVICE) as RoutesWorkerService;
    const connection = connect(env);
    const { db } = connection;
    const stores = createPostgresStores(db);
    const payments = createFetchHandler(
      {
        client: { apiKey: service.apiKey, baseUrl: service.baseUrl, appId: service.appId, merchantId: service.merchantId, localDevelopment: true },
        // The merchant's orders live in the same database, so every isolate sees them.
        resolveOrder: async (orderId) => {
          const { rows } = await db.query<{ id: string; amount: number; paid: boolean }>(
            'SELECT id, amount::int AS amount, paid_at IS NOT NULL AS paid FROM shop_orders WHERE id = $1',
            [orderId],
          );
          const order = rows[0];
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
          'payment.succeeded': inTransaction(async (event, { db: transaction }) => {
            await transaction.query('INSERT INTO shop_effects (order_id, transaction_id) VALUES ($1, $2)', [event.referenceOrderId, event.transactionId]);
            await transaction.query('UPDATE shop_orders SET paid_at = now() WHERE id = $1', [event.referenceOrderId]);
            // Counted outside the transaction, so a run that rolls back is counted too.
            const { rows } = await db.query<{ runs: number }>(
              `INSERT INTO shop_handler_runs (order_id, runs) VALUES ($1, 1)
               ON CONFLICT (order_id) DO UPDATE SET runs = shop_handler_runs.runs + 1 RETURNING runs`,
              [event.referenceOrderId ?? ''],
            );
            if (event.referenceOrderId?.startsWith('throws-') === true && rows[0]?.runs === 1) throw new Error('the handler failed after writing');
          }),
        },
      },
      { mountPath: '/payments' },
    );
    try {
      return await payments(request);
    } finally {
      ctx.waitUntil(connection.end());
    }
  },
};
