import type { Logger } from '@paymount/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, fromPg, type PostgresDatabase, type Row } from '../src';
import { pglite, type Connection } from './support/databases';
import { testPool } from '../../../tools/postgres-pool';

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { logger: { debug: none, info: none, warn: (o: object | string, m?: string) => void warnings.push(typeof o === 'string' ? o : (m ?? '')), error: none }, warnings };
}

/**
 * `db` as the stores see it, and `checked`: resolves once the store's check (its read of the settings, run beside
 * its first operation) has been answered and acted on, however long the server takes, so that no warning is
 * asserted absent before the check could have given it.
 */
function watchingTheCheck(db: PostgresDatabase): { db: PostgresDatabase; checked: Promise<void> } {
  let answered: () => void = () => {};
  const answer = new Promise<void>((resolve) => (answered = resolve));
  const query = <R extends Row = Row>(text: string, params?: readonly unknown[]) => {
    const result = db.query<R>(text, params);
    if (text.includes("current_setting('fsync')")) void result.then(answered, answered);
    return result;
  };
  // The warning is written in the continuation of that answer: one turn of the event loop later, it has been.
  const checked = answer.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return { db: { query, transaction: (fn) => db.transaction(fn) }, checked };
}

describe.skipIf(postgresSkipped)('a warning, once, about a server that can lose acknowledged commits', () => {
  let server: PostgresServer;
  const pools: pg.Pool[] = [];
  const storesOn = (options: pg.PoolConfig, logger: Logger) => {
    const pool = testPool(server.url, { max: 2, ...options });
    pools.push(pool);
    const { db, checked } = watchingTheCheck(fromPg(pool));
    return { ...createPostgresStores(db, { logger }), checked };
  };
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    server?.destroy();
  });

  it('synchronous_commit off is named with its fix, once however many operations follow', async () => {
    const { logger, warnings } = capture();
    const stores = storesOn({ options: '-c synchronous_commit=off' }, logger);
    await stores.idempotency.claim('durability-1', 60_000);
    await stores.idempotency.claim('durability-2', 60_000);
    await stores.checked;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/an order could be charged twice/);
    expect(warnings[0]).toMatch(/synchronous_commit is off: .*set `synchronous_commit = on`/);
  });

  it('a server with the defaults is not warned about', async () => {
    const { logger, warnings } = capture();
    const stores = storesOn({}, logger);
    await stores.orders.lock('durability-3', 60_000);
    await stores.checked;
    expect(warnings).toEqual([]);
  });
});

describe('PGlite', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await pglite();
  });
  afterAll(() => connection.close());

  it('is not warned about for its fsync = off (its writes go through its own file system)', async () => {
    const { logger, warnings } = capture();
    const { db, checked } = watchingTheCheck(connection.db);
    await createPostgresStores(db, { logger }).orders.lock('durability-4', 60_000);
    await checked;
    expect(warnings).toEqual([]);
  });
});
