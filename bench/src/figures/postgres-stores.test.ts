import { fromNeon, fromPg, migrate, type PgPoolLike, type PostgresDatabase } from '@paymount/postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_START_LIMIT_MS, postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { seedMerchantOrders } from '../fixtures/merchant-orders';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { deliveryHeaders, deliveryOrderId, PAYLOAD_BYTES, webhookPayload } from '../fixtures/webhook-delivery';
import { subject, withScope } from '../harness/scope';
import type { AppVariant } from '../subjects/apps/paymount-options';
import type { MerchantAppArgs } from '../subjects/merchant-app';
import { RECORDED_KEY, recordCycle, replay } from './postgres-stores';
import { testPool } from '../../../tools/postgres-pool';
import { neonPoolThroughRelay } from '../../../tools/pg-websocket-relay';

/** What a cycle left for `key`, without what differs by key or time (tokens, expiries). */
async function leftFor(pool: PgPoolLike, key: string) {
  const query = (text: string) => pool.query({ text, values: [key] });
  const attempt = await query('SELECT kind, state, handled_state, transaction_id, amount FROM paymount_order_attempts WHERE reference_order_id = $1');
  const lock = await query('SELECT 1 FROM paymount_order_locks WHERE reference_order_id = $1');
  const event = await pool.query({ text: 'SELECT state FROM paymount_webhook_events WHERE key = $1', values: [`event-${key}`] });
  return {
    attempt: (attempt.rows as Record<string, unknown>[]).map((row) => ({ ...row, transaction_id: String(row['transaction_id']).replace(key, '<key>') })),
    locks: lock.rows.length,
    event: event.rows,
  };
}

describe.skipIf(postgresSkipped)('the postgres-stores baseline', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgresServer();
    pool = testPool(server.url, { max: 2 });
    await migrate(fromPg(pool));
  });
  afterAll(async () => {
    await pool?.end();
    server?.destroy();
  });

  /** The recorded cycle's statements, replayed for another order, leave what the stores' own cycle left for theirs. */
  async function replaysAlike(on: PgPoolLike, wrap: (pool: PgPoolLike) => PostgresDatabase) {
    const steps = await recordCycle(on, wrap);
    // lock, get, put, put, settle, unlock, claim, and the mark: one statement, since the cycle's handler
    // sends nothing through its transaction, which then never begins.
    expect(steps.map((step) => step.kind)).toEqual(['query', 'query', 'query', 'query', 'query', 'query', 'query', 'query']);
    // Prepared (the wrappers' default), under the names the bare side then sends them by.
    expect(steps.filter((step) => step.kind === 'query' && step.sent.name === undefined)).toEqual([]);
    await replay(on, steps, 'bench-replayed-order');
    const stores = await leftFor(on, RECORDED_KEY);
    expect(stores).toEqual({
      attempt: [{ kind: 'wallet', state: 'succeeded', handled_state: 'succeeded', transaction_id: 'tx-<key>', amount: '1000' }],
      locks: 0,
      event: [{ state: 'done' }],
    });
    expect(await leftFor(on, 'bench-replayed-order')).toEqual(stores);
  }

  it("sends the stores' own statements and leaves the same rows for its order as the stores' cycle did (pg Pool)", () => replaysAlike(pool, fromPg));

  it("the same through Neon's serverless Pool, over a WebSocket relayed to the server (postgres-stores-neon)", async () => {
    const neon = await neonPoolThroughRelay(server.createDatabase('bench_neon_baseline'), 2);
    try {
      await migrate(fromNeon(neon.pool));
      await replaysAlike(neon.pool, fromNeon);
    } finally {
      await neon.end();
    }
  });
});

describe.skipIf(postgresSkipped)("the webhook-postgres-tx pair: each side's merchant-app marks the delivery's order paid", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, POSTGRES_START_LIMIT_MS);
  afterAll(() => server?.destroy());

  /** One fresh delivery to a merchant-app of `variant` on a database of its own; what the database then holds. */
  async function deliverOnce(database: string, variant: (url: string) => AppVariant) {
    const url = server.createDatabase(database);
    const pool = testPool(url, { max: 1 });
    try {
      await seedMerchantOrders(pool);
      const status = await withScope(async (scope) => {
        const app = await scope.start<{ url: string }>(subject('merchant-app'), {
          framework: 'express',
          side: 'paymount',
          // The webhook route never calls the service.
          upstream: 'http://127.0.0.1:9',
          variant: variant(url),
        } satisfies MerchantAppArgs);
        const body = webhookPayload(7, PAYLOAD_BYTES, `${database}_`);
        const res = await fetch(`${app.ready.url}/payments/webhook`, { method: 'POST', headers: deliveryHeaders(body, WEBHOOK_SECRET, 'dlv-1', Date.now()), body });
        return res.status;
      });
      const order = await pool.query('SELECT paid_at IS NOT NULL AS paid, transaction_id, xmin::text FROM orders WHERE id = $1', [deliveryOrderId(7)]);
      const stored = await pool.query<{ table: string | null }>("SELECT to_regclass('paymount_webhook_events')::text AS table");
      const events = stored.rows[0]?.table ? (await pool.query('SELECT state, xmin::text FROM paymount_webhook_events')).rows : undefined;
      const others = await pool.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE paid_at IS NOT NULL');
      return { status, order: order.rows[0], events, paidOrders: Number(others.rows[0]?.n) };
    } finally {
      await pool.end();
    }
  }

  it("paymount's side: the UPDATE commits in the transaction that marks the event handled (the Postgres store)", async () => {
    const { status, order, events, paidOrders } = await deliverOnce('pair_tx', (url) => ({ databaseUrl: url, markPaid: { through: 'transaction' } }));
    expect(status).toBe(200);
    expect(order).toEqual({ paid: true, transaction_id: 'txn_pair_tx_7', xmin: expect.any(String) });
    // Both rows written by one transaction carry its id.
    expect(events).toEqual([{ state: 'done', xmin: order.xmin }]);
    expect(paidOrders).toBe(1);
  }, 120_000);

  it('the baseline: the same UPDATE through a pg Pool of its own, the event deduplicated in memory', async () => {
    const { status, order, events, paidOrders } = await deliverOnce('pair_pool', (url) => ({ markPaid: { through: 'pool', databaseUrl: url } }));
    expect(status).toBe(200);
    expect(order).toEqual({ paid: true, transaction_id: 'txn_pair_pool_7', xmin: expect.any(String) });
    expect(events).toBeUndefined();
    expect(paidOrders).toBe(1);
  }, 120_000);
});
