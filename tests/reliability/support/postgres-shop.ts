import type { PaymentEvent } from '@paymount/core';
import { createPostgresStores, fromPg, inTransaction, migrate } from '@paymount/postgres';
import pg from 'pg';
import { startSharedStoreShop, type SharedStoreShop, type SharedStoreShopOptions } from './shared-store-instance';
import { Shop } from './shop';

/** The merchant's table of effects: one row per event its handler applied, written in paymount's transaction. */
const EFFECTS_TABLE = `CREATE TABLE IF NOT EXISTS shop_effects (
  id serial PRIMARY KEY, event_type text NOT NULL, transaction_id text, reference_order_id text)`;

/** One merchant deployed as several app instances, each with its own pool on one PostgreSQL database, against one sandbox. */
export interface PostgresShop extends SharedStoreShop {
  /** What the merchant's table holds: every applied event, as the handler saw it. */
  effects(): Promise<Array<Pick<PaymentEvent, 'type' | 'transactionId' | 'referenceOrderId'>>>;
}

export interface PostgresShopOptions extends SharedStoreShopOptions {
  databaseUrl: string;
}

export async function startPostgresShop(options: PostgresShopOptions): Promise<PostgresShop> {
  const { databaseUrl, ...shopOptions } = options;
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  await migrate(fromPg(admin));
  await admin.query(EFFECTS_TABLE);
  const pools: pg.Pool[] = [];
  const shop = new Shop();
  const started = await startSharedStoreShop(
    shopOptions,
    async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 20, connectionTimeoutMillis: 2_000 });
      pools.push(pool);
      const stores = createPostgresStores(fromPg(pool));
      return {
        store: stores.idempotency,
        orders: { store: stores.orders },
        on: {
          '*': inTransaction(async (event: PaymentEvent, { db }) => {
            shop.handlerRuns.push(event);
            await db.query('INSERT INTO shop_effects (event_type, transaction_id, reference_order_id) VALUES ($1, $2, $3)', [
              event.type,
              event.transactionId ?? null,
              event.referenceOrderId ?? null,
            ]);
          }),
        },
      };
    },
    async () => void (await Promise.all([...pools, admin].map((pool) => pool.end()))),
    shop,
  );
  return {
    ...started,
    async effects() {
      const { rows } = await admin.query('SELECT event_type, transaction_id, reference_order_id FROM shop_effects');
      return rows.map((row) => ({ type: row.event_type, transactionId: row.transaction_id ?? undefined, referenceOrderId: row.reference_order_id ?? undefined }));
    },
  };
}
