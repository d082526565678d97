import { PaymentStoreUnavailableError, PaymentValidationError } from '@paymount/core';
import { createHash } from 'node:crypto';
import { neon } from '@neondatabase/serverless';
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, fromNeon, fromPg, fromPostgresJs, migrate, type PostgresDatabase } from '../src';
import { PREPARED_TEXTS_MAX, statementNames } from '../src/statement-names';

/** PostgreSQL cuts longer names, so two that differ only beyond it would be one statement. */
const NAME_BYTES_MAX = 63;

describe('statementNames(): the name each statement text is prepared under', () => {
  it('gives a text the same name every time, in every wrapper (two wrappers on one pool agree): its SHA-256, as before Web Crypto took it', async () => {
    const [first, second] = [statementNames(), statementNames()];
    const text = 'SELECT * FROM orders WHERE id = $1';
    const name = await first(text, [1]);
    expect(name).toMatch(/^paymount_/);
    expect(await first(text, [2])).toBe(name);
    expect(await second(text, [3])).toBe(name);
    expect(name).toBe(`paymount_${createHash('sha256').update(text).digest('base64url')}`);
  });

  it('never gives two texts one name, all under PostgreSQL’s name length', async () => {
    const nameOf = statementNames();
    // Texts that differ by one character, or only at their end.
    const texts = Array.from({ length: PREPARED_TEXTS_MAX }, (_, n) => `SELECT $1::text || '${'x'.repeat(200)}${n}'`);
    const names = await Promise.all(texts.map((text) => nameOf(text, ['a'])));
    expect(new Set(names).size).toBe(texts.length);
    for (const name of names) expect(Buffer.byteLength(name!)).toBeLessThanOrEqual(NAME_BYTES_MAX);
  });

  it('leaves a statement without parameters unnamed: sent as text, it may be several statements (a migration)', async () => {
    expect(statementNames()('CREATE TABLE a (x int); CREATE TABLE b (y int)', [])).toBeUndefined();
  });

  it(`names at most ${PREPARED_TEXTS_MAX} texts; those beyond go unnamed, and the named keep their names`, async () => {
    const nameOf = statementNames();
    const named = await Promise.all(Array.from({ length: PREPARED_TEXTS_MAX }, (_, n) => nameOf(`SELECT $1::int + ${n}`, [1])));
    expect(named.every((name) => name !== undefined)).toBe(true);
    expect(nameOf(`SELECT $1::int + ${PREPARED_TEXTS_MAX}`, [1])).toBeUndefined();
    expect(await nameOf('SELECT $1::int + 0', [1])).toBe(named[0]);
  });
});

describe('fromPg options', () => {
  it('a prepare option that is not a boolean is refused, naming the field and the rule', () => {
    const client = new pg.Client();
    expect(() => fromPg(client, { prepare: 'no' } as never)).toThrow(PaymentValidationError);
    expect(() => fromPg(client, { prepare: 'no' } as never)).toThrow(/prepare.*must be true or false/);
    expect(() => fromPg(client, { prepared: false } as never)).toThrow(/prepared/);
  });
});

describe('fromNeon', () => {
  it('refuses neon() over HTTP, which cannot hold a handler’s transaction open, naming the field and what to pass', () => {
    const overHttp = neon('postgres://user:secret@127.0.0.1:9/db');
    expect(() => fromNeon(overHttp as never)).toThrow(PaymentValidationError);
    expect(() => fromNeon(overHttp as never)).toThrow(/fromNeon pool.*must be a Pool from @neondatabase\/serverless/);
    expect(() => fromNeon(overHttp as never)).not.toThrow(/secret/);
  });
});

interface Prepared {
  name: string;
  statement: string;
  /** How often the server ran it: parsed once, planned and run this often. */
  runs: number;
}

/** The prepared statements of one server session, as the server lists them. */
async function preparedOn(session: { query: PostgresDatabase['query'] }): Promise<Prepared[]> {
  const { rows } = await session.query<{ name: string; statement: string; runs: string }>(
    'SELECT name, statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements ORDER BY name',
  );
  return rows.map((row) => ({ ...row, runs: Number(row.runs) }));
}

/** Deliveries of `count` events through the stores on `db`, each handler writing one row in the event's transaction. */
async function deliver(db: PostgresDatabase, prefix: string, count: number): Promise<void> {
  const { idempotency } = createPostgresStores(db);
  for (let n = 0; n < count; n++) {
    const key = `${prefix}-${n}`;
    expect(await idempotency.claim(key, 60_000)).toBe(true);
    await idempotency.runHandled(key, 60_000, (tx) => tx.query('INSERT INTO prepared_effects (key) VALUES ($1)', [key]));
  }
}

describe.skipIf(postgresSkipped)('prepared statements on a real PostgreSQL server', () => {
  let server: PostgresServer;
  const clients: pg.Client[] = [];
  /** One server session (a pg.Client): what it prepared is what pg_prepared_statements lists on it. */
  const session = async () => {
    const client = new pg.Client({ connectionString: server.url });
    clients.push(client);
    await client.connect();
    return client;
  };
  beforeAll(async () => {
    server = await startPostgresServer();
    const client = await session();
    await migrate(fromPg(client));
    await client.query('CREATE TABLE prepared_effects (key text NOT NULL)');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    server?.destroy();
  });

  it('fromPg prepares each statement once per connection, by one name per text, and runs it again by that name', async () => {
    const client = await session();
    await deliver(fromPg(client), 'pg-prepared', 5);
    const once = await preparedOn(fromPg(client, { prepare: false }));
    // The claim, the handler's insert and the mark (besides the stores' first-use statements).
    const claim = once.find((statement) => statement.statement.includes('INSERT INTO paymount_webhook_events'));
    const insert = once.find((statement) => statement.statement.startsWith('INSERT INTO prepared_effects'));
    expect(claim?.name).toMatch(/^paymount_/);
    expect(claim?.runs).toBe(5);
    expect(insert?.runs).toBe(5);
    expect(new Set(once.map((statement) => statement.name)).size).toBe(once.length);
    expect(new Set(once.map((statement) => statement.statement)).size).toBe(once.length);

    // Another wrapper on the same connection sends the same texts under the same names: no new statement, no conflict.
    await deliver(fromPg(client), 'pg-prepared-again', 3);
    const again = await preparedOn(fromPg(client, { prepare: false }));
    expect(again.map((statement) => statement.name)).toEqual(once.map((statement) => statement.name));
    expect(again.find((statement) => statement.name === claim?.name)?.runs).toBe(8);
  });

  it('fromPg(db, { prepare: false }) sends every statement unnamed: the connection keeps none', async () => {
    const client = await session();
    const db = fromPg(client, { prepare: false });
    await deliver(db, 'pg-unnamed', 3);
    expect(await preparedOn(db)).toEqual([]);
  });

  it('a prepared statement the connection lost (as behind a pooler in transaction mode) fails with the option that fixes it', async () => {
    const client = await session();
    const { idempotency } = createPostgresStores(fromPg(client));
    await idempotency.claim('pooler-1', 60_000);
    // What a transaction-mode pooler does: the next statement goes to a server connection that never prepared it.
    await client.query('DEALLOCATE ALL');
    const refused = idempotency.claim('pooler-2', 60_000);
    await expect(refused).rejects.toBeInstanceOf(PaymentStoreUnavailableError);
    await expect(refused).rejects.toThrow(/pooler in transaction mode.*fromPg\(pool, \{ prepare: false \}\)/);
  });

  it.each([
    ['prepares its statements once per connection', true],
    ['made with prepare: false, sends them unnamed', false],
  ])('postgres.js: fromPostgresJs %s', async (_, prepare) => {
    const sql = postgres(server.url, { max: 1, onnotice: () => {}, prepare });
    try {
      const db = fromPostgresJs(sql);
      await deliver(db, `postgres-js-${prepare}`, 4);
      const prepared = await preparedOn(db);
      const claim = prepared.find((statement) => statement.statement.includes('INSERT INTO paymount_webhook_events'));
      expect(claim?.runs).toBe(prepare ? 4 : undefined);
      if (!prepare) expect(prepared).toEqual([]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
