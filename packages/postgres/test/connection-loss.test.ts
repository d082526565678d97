import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, fromPg, type PostgresStores } from '../src';
import { testPool } from '../../../tools/postgres-pool';

/**
 * node-postgres reports a connection lost while it is lent out of a pool on
 * the connection itself, as an 'error' event: with nobody listening, that
 * event ends the process. The pool listens on the connections it holds (the
 * merchant's `pool.on('error')`), not on those a transaction took.
 */
describe.skipIf(postgresSkipped)('the database server crashing while a handlers\' transaction holds a pooled connection', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let stores: PostgresStores;

  beforeAll(async () => {
    server = await startPostgresServer();
    pool = testPool(server.url, { max: 4 });
    stores = createPostgresStores(fromPg(pool));
    await stores.db.query('CREATE TABLE lost_effects (key text NOT NULL)');
  });

  afterAll(async () => {
    await pool?.end();
    server?.destroy();
  });

  it('fails that transaction and nothing else: no uncaught error ends the process, and the next event is handled on a new connection', async () => {
    expect(await stores.idempotency.claim('lost-1', 60_000)).toBe(true);
    const handled = stores.idempotency.runHandled('lost-1', 60_000, async (tx) => {
      await tx.query('INSERT INTO lost_effects (key) VALUES ($1)', ['lost-1']);
      // The server dies while the transaction is open and its connection idle between statements.
      await server.crash(0);
      await tx.query('INSERT INTO lost_effects (key) VALUES ($1)', ['lost-1']);
    });
    await expect(handled).rejects.toThrow();

    expect(await stores.idempotency.claim('lost-2', 60_000)).toBe(true);
    await stores.idempotency.runHandled('lost-2', 60_000, (tx) => tx.query('INSERT INTO lost_effects (key) VALUES ($1)', ['lost-2']));
    // The crash rolled the first transaction back: only the second event's effect, and its mark, are there.
    expect((await stores.db.query('SELECT key FROM lost_effects')).rows).toEqual([{ key: 'lost-2' }]);
    expect(await stores.idempotency.state('lost-2')).toBe('done');
  });
});
