import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { ClaimLostError, createPostgresStores, fromPg, type PostgresDatabase, type PostgresQueryable } from '../src';
import { connect, pglite, type Connection } from './support/databases';
import { testPool } from '../../../tools/postgres-pool';

let keys = 0;
const freshKey = () => `run-handled-${process.pid}-${++keys}`;
const EFFECTS = 'CREATE TABLE IF NOT EXISTS handler_effects (key text NOT NULL, run text NOT NULL)';

async function effectsOf(db: PostgresDatabase, key: string): Promise<string[]> {
  const { rows } = await db.query<{ run: string }>('SELECT run FROM handler_effects WHERE key = $1 ORDER BY run', [key]);
  return rows.map((row) => row.run);
}

/** runHandled's commit-or-nothing, on databases opened by `open` (each call a new connection to the same one). */
function describeRunHandled(name: string, open: () => Promise<PostgresDatabase>, { concurrentConnections }: { concurrentConnections: boolean }) {
  describe(`${name}: runHandled() commits the handler's writes with the event's mark, or neither`, () => {
    let db: PostgresDatabase;
    beforeAll(async () => {
      db = await open();
      await db.query(EFFECTS);
    });

    it('the writes and the mark commit together; the key is then done', async () => {
      const { idempotency } = createPostgresStores(db);
      const key = freshKey();
      expect(await idempotency.claim(key, 60_000)).toBe(true);
      const answer = await idempotency.runHandled(key, 60_000, async (tx) => {
        await tx.query('INSERT INTO handler_effects (key, run) VALUES ($1, $2)', [key, 'only']);
        return 'handled';
      });
      expect(answer).toBe('handled');
      expect(await effectsOf(db, key)).toEqual(['only']);
      expect(await idempotency.state(key)).toBe('done');
      expect(await idempotency.claim(key, 60_000)).toBe(false);
    });

    it('a handler that throws after writing leaves no write and the claim held, to be released and retried', async () => {
      const { idempotency } = createPostgresStores(db);
      const key = freshKey();
      await idempotency.claim(key, 60_000);
      const failing = idempotency.runHandled(key, 60_000, async (tx) => {
        await tx.query('INSERT INTO handler_effects (key, run) VALUES ($1, $2)', [key, 'failed']);
        throw new Error('the merchant write failed');
      });
      await expect(failing).rejects.toThrow('the merchant write failed');
      expect(await effectsOf(db, key)).toEqual([]);
      expect(await idempotency.state(key)).toBe('processing');
      await idempotency.release(key);
      expect(await idempotency.state(key)).toBeUndefined();
    });

    it('without a claim on the key, nothing runs', async () => {
      const { idempotency } = createPostgresStores(db);
      let ran = false;
      await expect(idempotency.runHandled(freshKey(), 60_000, async () => void (ran = true))).rejects.toBeInstanceOf(ClaimLostError);
      expect(ran).toBe(false);
    });

    it('a claim lost before the mark (as a server crash loses one not yet flushed) is refused: writes roll back, nothing is marked, a redelivery handles the event once', async () => {
      const [lost, redelivery] = [createPostgresStores(db).idempotency, createPostgresStores(db).idempotency];
      const key = freshKey();
      const writes = (run: string) => async (tx: PostgresQueryable) => {
        await tx.query('INSERT INTO handler_effects (key, run) VALUES ($1, $2)', [key, run]);
      };
      // Handlers that write, and handlers that write nothing (whose mark is a statement alone).
      for (const handle of [writes('lost'), async () => undefined]) {
        expect(await lost.claim(key, 60_000)).toBe(true);
        await db.query('DELETE FROM paymount_webhook_events WHERE key = $1', [key]);
        await expect(lost.runHandled(key, 60_000, handle)).rejects.toBeInstanceOf(ClaimLostError);
        expect(await lost.state(key)).toBeUndefined();
      }
      expect(await redelivery.claim(key, 60_000)).toBe(true);
      await redelivery.runHandled(key, 60_000, writes('redelivered'));
      expect(await effectsOf(db, key)).toEqual(['redelivered']);
      expect(await redelivery.state(key)).toBe('done');
    });

    it.skipIf(!concurrentConnections)(
      'a handler that outlives its lease and loses the claim to another instance is rolled back: only the other run takes effect',
      async () => {
        const [slow, other] = [createPostgresStores(db).idempotency, createPostgresStores(await open()).idempotency];
        const key = freshKey();
        expect(await slow.claim(key, 100)).toBe(true);
        // The slow handler writes, then waits until the other instance has its claim: no timer decides who is first.
        let wrote = () => {};
        const written = new Promise<void>((resolve) => (wrote = resolve));
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        const slowRun = slow.runHandled(key, 60_000, async (tx) => {
          await tx.query('INSERT INTO handler_effects (key, run) VALUES ($1, $2)', [key, 'slow']);
          wrote();
          await released;
        });
        await written;
        // Refused while the 100 ms lease holds, taken once it has lapsed.
        while (!(await other.claim(key, 60_000))) await sleep(50);
        const otherRun = other.runHandled(key, 60_000, async (tx) => {
          await tx.query('INSERT INTO handler_effects (key, run) VALUES ($1, $2)', [key, 'other']);
        });
        const slowLost = expect(slowRun).rejects.toBeInstanceOf(ClaimLostError);
        release();
        await otherRun;
        await slowLost;
        expect(await effectsOf(db, key)).toEqual(['other']);
        expect(await slow.state(key)).toBe('done');
      },
    );
  });
}

describe.skipIf(postgresSkipped)('a real PostgreSQL server', () => {
  let server: PostgresServer;
  const connections: Connection[] = [];
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    server?.destroy();
  });
  const opener = (driver: 'pg Pool' | 'postgres.js' | 'pg Client' | 'Neon Pool over WebSocket') => async () => {
    const connection = await connect(driver, server.url);
    connections.push(connection);
    return connection.db;
  };
  describeRunHandled('pg Pool', opener('pg Pool'), { concurrentConnections: true });

  it('pg Pool: handlers that send nothing through the transaction hold no connection while they run (a pool of one still serves)', async () => {
    const pool = testPool(server.url, { max: 1 });
    try {
      const { idempotency } = createPostgresStores(fromPg(pool));
      const key = freshKey();
      await idempotency.claim(key, 60_000);
      const served = idempotency.runHandled(key, 60_000, async () => (await pool.query<{ served: number }>('SELECT 1 AS served')).rows[0]?.served);
      const waited = sleep(5_000).then(() => 'the pool stayed taken by an empty transaction');
      expect(await Promise.race([served, waited])).toBe(1);
      expect(await idempotency.state(key)).toBe('done');
    } finally {
      await pool.end();
    }
  });
  describeRunHandled('postgres.js', opener('postgres.js'), { concurrentConnections: true });
  describeRunHandled('pg Client', opener('pg Client'), { concurrentConnections: true });
  describeRunHandled('Neon Pool over WebSocket', opener('Neon Pool over WebSocket'), { concurrentConnections: true });
});

describe('PGlite', () => {
  let shared: Promise<Connection> | undefined;
  afterAll(async () => (await shared)?.close());
  // One connection: a second instance's claim waits for the first's transaction to end.
  describeRunHandled('PGlite', async () => (await (shared ??= pglite())).db, { concurrentConnections: false });
});
