import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { migrate, PostgresOrderAttemptStore, type PostgresDatabase } from '../src';
import { PURGE_BATCH, PURGE_INTERVAL_MS, StoreLink } from '../src/store-link';
import { tableNamesOf } from '../src/table-names';
import { connect, type Connection } from './support/databases';

/** Rows left behind by orders long over: three purge batches in each table. */
const EXPIRED_ROWS = 3 * PURGE_BATCH;

describe.skipIf(postgresSkipped)('expired rows of the order attempt store', () => {
  let server: PostgresServer;
  let connection: Connection;
  let db: PostgresDatabase;
  beforeAll(async () => {
    server = await startPostgresServer();
    connection = await connect('pg Pool', server.url);
    db = connection.db;
    await migrate(db);
  });
  afterAll(async () => {
    await connection?.close();
    server?.destroy();
  });

  const expiredIn = async (table: string) =>
    Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE expires_at <= clock_timestamp()`)).rows[0]!.n);

  it('are purged from both its tables, locks and attempts, a batch each per purge interval', async () => {
    await db.query(
      `INSERT INTO paymount_order_locks (reference_order_id, token, expires_at)
       SELECT 'old-' || n, 'token', now() - interval '1 hour' FROM generate_series(1, ${EXPIRED_ROWS}) AS n`,
    );
    await db.query(
      `INSERT INTO paymount_order_attempts (reference_order_id, kind, transaction_request_id, state, updated_at, expires_at)
       SELECT 'old-' || n, 'wallet', 'request-' || n, 'succeeded', 0, now() - interval '1 hour' FROM generate_series(1, ${EXPIRED_ROWS}) AS n`,
    );
    let now = 1_000_000;
    const names = tableNamesOf({});
    const store = new PostgresOrderAttemptStore(new StoreLink(db, 'order attempt store', { location: {}, names, migrate: false, clock: { now: () => now } }));

    for (let interval = 1; interval <= 4; interval += 1) {
      // Each order taken locks first and records its attempt after: both run in every interval.
      const orderId = `new-${interval}`;
      await store.lock(orderId, 60_000);
      await store.put({ referenceOrderId: orderId, kind: 'wallet', transactionRequestId: `new-request-${interval}`, state: 'pending', updatedAt: now }, 60_000);
      const left = Math.max(0, EXPIRED_ROWS - interval * PURGE_BATCH);
      // The purge runs in the background: waited for, so the next interval's does not race it for the same rows.
      await vi.waitFor(
        async () => {
          expect({ locks: await expiredIn(names.orderLocks), attempts: await expiredIn(names.orderAttempts) }).toEqual({ locks: left, attempts: left });
        },
        { timeout: 15_000, interval: 50 },
      );
      now += PURGE_INTERVAL_MS;
    }
    // The new orders' rows have not expired: purged rows were only the old ones.
    expect((await db.query(`SELECT count(*)::int AS n FROM ${names.orderAttempts}`)).rows[0]).toEqual({ n: 4 });
  });
});
