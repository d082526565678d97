import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, fromPg, type PostgresIdempotencyStore } from '../src';

const EVENTS = 20;

/**
 * Which of an event's writes wait for the server's flush to disk (fsync),
 * counted by the server (pg_stat_wal.wal_sync, PostgreSQL 14+; its flush on
 * demand, 15+). The WAL writer's own flushes of unflushed commits are held
 * to full pages (wal_writer_delay at its 10 s maximum), so what is counted
 * is what the stores asked for.
 */
describe.skipIf(postgresSkipped)('what an event waits the disk for', () => {
  let server: PostgresServer;
  let client: pg.Client;
  let idempotency: PostgresIdempotencyStore;
  let version = 0;
  beforeAll(async () => {
    server = await startPostgresServer();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    version = Number((await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]!.v);
    await client.query("ALTER SYSTEM SET wal_writer_delay = '10s'");
    await client.query('SELECT pg_reload_conf()');
    // One connection: the stores' statements and the counter's, one after the other.
    idempotency = createPostgresStores(fromPg(client)).idempotency;
    await idempotency.claim('flushes-warm-up', 60_000);
  });
  afterAll(async () => {
    await client?.end();
    server?.destroy();
  });

  /** The server's WAL flushes while `work` runs. */
  async function flushesDuring(work: () => Promise<void>): Promise<number> {
    const count = async () => {
      // This backend's pending counts are published as it goes idle after this, not up to 10 s later.
      await client.query('SELECT pg_stat_force_next_flush()');
      return Number((await client.query<{ n: string }>('SELECT wal_sync AS n FROM pg_stat_wal')).rows[0]!.n);
    };
    const before = await count();
    await work();
    return (await count()) - before;
  }

  it('a claim is answered without waiting for a flush; the mark that follows it is flushed, and with it the claim', async ({ skip }) => {
    if (version < 150_000) skip();
    const claims = await flushesDuring(async () => {
      for (let n = 0; n < EVENTS; n++) expect(await idempotency.claim(`flushes-claim-${n}`, 60_000)).toBe(true);
    });
    expect(claims).toBeLessThan(EVENTS / 2);

    const marks = await flushesDuring(async () => {
      for (let n = 0; n < EVENTS; n++) await idempotency.runHandled(`flushes-claim-${n}`, 60_000, async () => undefined);
    });
    expect(marks).toBeGreaterThanOrEqual(EVENTS);
    expect(marks).toBeLessThan(EVENTS + EVENTS / 2);
  });

  it('a first delivery (claim, then handlers that write, marked in their transaction) waits for one flush', async ({ skip }) => {
    if (version < 150_000) skip();
    await client.query('CREATE TABLE IF NOT EXISTS flush_effects (key text NOT NULL)');
    const flushes = await flushesDuring(async () => {
      for (let n = 0; n < EVENTS; n++) {
        const key = `flushes-delivery-${n}`;
        expect(await idempotency.claim(key, 60_000)).toBe(true);
        await idempotency.runHandled(key, 60_000, (tx) => tx.query('INSERT INTO flush_effects (key) VALUES ($1)', [key]));
      }
    });
    expect(flushes).toBeGreaterThanOrEqual(EVENTS);
    expect(flushes).toBeLessThan(EVENTS + EVENTS / 2);
  });
});
