import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import postgres from 'postgres';
import { fromNeon, fromPg, fromPGlite, fromPostgresJs, type PostgresDatabase } from '../../src';
import { neonPoolThroughRelay } from '../../../../tools/pg-websocket-relay';
import { testPool } from '../../../../tools/postgres-pool';

/** One way a merchant connects: a driver, wrapped, and how to close it. */
export interface Connection {
  db: PostgresDatabase;
  close(): Promise<void>;
}

/** Each driver as it comes (statements prepared), and `unprepared`: as behind a pooler in transaction mode. */
export type DriverName = 'pg Pool' | 'pg Client' | 'postgres.js' | 'pg Pool, unprepared' | 'postgres.js, unprepared' | 'Neon Pool over WebSocket';

/** A new connection (pool) of `driver` to the server at `url`. */
export async function connect(driver: DriverName, url: string): Promise<Connection> {
  switch (driver) {
    case 'pg Pool':
    case 'pg Pool, unprepared': {
      const pool = testPool(url, { max: 10 });
      return { db: fromPg(pool, { prepare: driver === 'pg Pool' }), close: () => pool.end() };
    }
    case 'pg Client': {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      return { db: fromPg(client), close: () => client.end() };
    }
    case 'postgres.js':
    case 'postgres.js, unprepared': {
      const sql = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 2, prepare: driver === 'postgres.js' });
      return { db: fromPostgresJs(sql), close: () => sql.end({ timeout: 1 }) };
    }
    case 'Neon Pool over WebSocket': {
      const neon = await neonPoolThroughRelay(url, 10);
      return { db: fromNeon(neon.pool), close: () => neon.end() };
    }
  }
}

/** PGlite in memory: Postgres in this process. */
export async function pglite(): Promise<Connection & { pglite: PGlite }> {
  const db = await PGlite.create();
  return { db: fromPGlite(db), pglite: db, close: () => db.close() };
}
