import { readdirSync, readFileSync } from 'node:fs';
import { PaymentStoreUnavailableError, PaymentValidationError } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, migrate } from '../src';
import { shippedMigrationFiles } from '../src/shipped-migrations.web';
import { connect, pglite, type Connection } from './support/databases';

it('the edge build bundles every SQL file of migrations/, in name order, with its text (there is no file system to read them from)', () => {
  const folder = new URL('../migrations/', import.meta.url);
  const files = readdirSync(folder).filter((file) => file.endsWith('.sql')).sort();
  expect(shippedMigrationFiles().map(({ name }) => `${name}.sql`)).toEqual(files);
  for (const { name, sql } of shippedMigrationFiles()) expect(sql).toBe(readFileSync(new URL(`${name}.sql`, folder), 'utf8'));
});

describe.skipIf(postgresSkipped)('migrate() against a real PostgreSQL server', () => {
  let server: PostgresServer;
  const connections: Connection[] = [];
  const open = async () => {
    const connection = await connect('pg Pool', server.url);
    connections.push(connection);
    return connection.db;
  };
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    server?.destroy();
  });

  it('five instances starting together apply each migration once, and a later start applies nothing', async () => {
    const dbs = await Promise.all(Array.from({ length: 5 }, open));
    const applied = await Promise.all(dbs.map((db) => migrate(db, { schema: 'together' })));
    expect(applied.flat()).toEqual(['0001_stores']);
    expect(await migrate(dbs[0]!, { schema: 'together' })).toEqual([]);
    const { rows } = await dbs[0]!.query<{ name: string }>('SELECT name FROM together.paymount_migrations');
    expect(rows.map((row) => row.name)).toEqual(['0001_stores']);
  });

  it('instances spelling one location differently, or putting several prefixes in one new schema, migrate together without a catalog clash', async () => {
    const dbs = await Promise.all(Array.from({ length: 6 }, open));
    for (let round = 1; round <= 5; round += 1) {
      const prefix = `round${round}_`;
      const schema = `new_schema_${round}`;
      // Each pair names the same tables; the last three share a schema nobody has created yet.
      const locations = [{ tablePrefix: prefix }, { schema: 'public', tablePrefix: prefix }, { tablePrefix: prefix }, ...['a_', 'b_', 'c_'].map((tablePrefix) => ({ schema, tablePrefix }))];
      const outcomes = await Promise.allSettled(locations.map((location, index) => migrate(dbs[index % dbs.length]!, location)));
      const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
      expect(failures, `round ${round}`).toEqual([]);
      const applied = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
      // The public tables once, whichever spelling came first; each prefix of the new schema once.
      expect(applied.slice(0, 3).flat(), `round ${round}`).toEqual(['0001_stores']);
      expect(applied.slice(3), `round ${round}`).toEqual([['0001_stores'], ['0001_stores'], ['0001_stores']]);
      const { rows } = await dbs[0]!.query<{ tables: string }>(
        `SELECT count(*)::text AS tables FROM information_schema.tables WHERE (table_schema = 'public' AND table_name LIKE '${prefix}%') OR table_schema = '${schema}'`,
      );
      expect(rows[0]!.tables).toBe(String(4 * 4));
    }
  });

  it('schema and tablePrefix place the tables, and the stores created with the same options use them', async () => {
    const db = await open();
    const stores = createPostgresStores(db, { schema: 'shop', tablePrefix: 'pay_' });
    expect(await stores.orders.lock('order-1', 60_000)).toEqual(expect.any(String));
    expect(await stores.idempotency.claim('event-1', 60_000)).toBe(true);
    const { rows } = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop' ORDER BY table_name",
    );
    expect(rows.map((row) => row.table_name)).toEqual(['pay_migrations', 'pay_order_attempts', 'pay_order_locks', 'pay_webhook_events']);
    expect((await db.query('SELECT key FROM shop.pay_webhook_events')).rows).toEqual([{ key: 'event-1' }]);
  });

  it('with migrate: false and no tables, every store operation is refused as unavailable, saying to run migrate()', async () => {
    const stores = createPostgresStores(await open(), { schema: 'never_migrated', migrate: false });
    const refused = stores.idempotency.claim('event-1', 60_000);
    await expect(refused).rejects.toBeInstanceOf(PaymentStoreUnavailableError);
    await expect(refused).rejects.toThrow(/tables are missing: call migrate\(db, \{ schema, tablePrefix \}\) at start-up/);
  });
});

describe('migrate() and createPostgresStores() options', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await pglite();
  });
  afterAll(() => connection.close());

  it.each([
    [{ schema: 'Shop' }, 'schema', /lowercase letters, digits and _/],
    [{ tablePrefix: 'pay-' }, 'tablePrefix', /lowercase letters, digits and _/],
    [{ tablePrefix: 'p'.repeat(39) }, 'tablePrefix', /at most 38 characters/],
    [{ tablePrefix: 3 }, 'tablePrefix', /must be a table name prefix/],
    [{ schema: 'x', extra: true }, 'extra', /extra is not an option; known: `schema`, `tablePrefix`/],
  ])('migrate(db, %j) is refused naming %s', async (options, field, rule) => {
    const refused = migrate(connection.db, options as never);
    await expect(refused).rejects.toBeInstanceOf(PaymentValidationError);
    await expect(refused).rejects.toThrow(field);
    await expect(refused).rejects.toThrow(rule);
  });

  it('createPostgresStores refuses a driver that was not wrapped, and says how to wrap it', () => {
    expect(() => createPostgresStores({ query: async () => ({ rows: [] }) } as never)).toThrow(/fromPg\(pool\), fromNeon\(pool\), fromPostgresJs\(sql\) or fromPGlite\(db\)/);
    expect(() => createPostgresStores(connection.db, { migrate: 'yes' } as never)).toThrow(/migrate.*must be true or false/);
  });
});
