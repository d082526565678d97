import { fromPg, migrate } from '@paymount/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { RECORDED_KEY, recordCycle, replay } from './postgres-stores';

/** What a cycle left for `key`, without what differs by key or time (tokens, expiries). */
async function leftFor(pool: pg.Pool, key: string) {
  const attempt = await pool.query('SELECT kind, state, handled_state, transaction_id, amount FROM paymount_order_attempts WHERE reference_order_id = $1', [key]);
  const lock = await pool.query('SELECT 1 FROM paymount_order_locks WHERE reference_order_id = $1', [key]);
  const event = await pool.query('SELECT state FROM paymount_webhook_events WHERE key = $1', [`event-${key}`]);
  return {
    attempt: attempt.rows.map((row) => ({ ...row, transaction_id: String(row.transaction_id).replace(key, '<key>') })),
    locks: lock.rowCount,
    event: event.rows,
  };
}

describe.skipIf(postgresSkipped)('the postgres-stores baseline', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
    await migrate(fromPg(pool));
  });
  afterAll(async () => {
    await pool?.end();
    server?.destroy();
  });

  it("sends the stores' own statements and leaves the same rows for its order as the stores' cycle did", async () => {
    const steps = await recordCycle(pool);
    // lock, get, put, put, settle, unlock, claim, and the mark: one statement, since the cycle's handler
    // sends nothing through its transaction, which then never begins.
    expect(steps.map((step) => step.kind)).toEqual(['query', 'query', 'query', 'query', 'query', 'query', 'query', 'query']);
    // Prepared (fromPg's default), under the names the bare side then sends them by.
    expect(steps.filter((step) => step.kind === 'query' && step.sent.name === undefined)).toEqual([]);
    await replay(pool, steps, 'bench-replayed-order');
    const stores = await leftFor(pool, RECORDED_KEY);
    expect(stores).toEqual({
      attempt: [{ kind: 'wallet', state: 'succeeded', handled_state: 'succeeded', transaction_id: 'tx-<key>', amount: '1000' }],
      locks: 0,
      event: [{ state: 'done' }],
    });
    expect(await leftFor(pool, 'bench-replayed-order')).toEqual(stores);
  });
});
