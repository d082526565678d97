import type { D1Database, D1PreparedStatement } from './workers-types';

const TABLE = 'paymount_handled_events';
/** Expired marks deleted by each batch: enough to keep up with the events that add one each. */
const PURGE_PER_BATCH = 20;

/**
 * The handled marks kept in the merchant's D1 database beside the handler's
 * own writes: a mark and the writes commit in one `batch()` (a D1
 * transaction), and a second mark of a live key fails the batch, rolling the
 * writes back. So an event takes effect in D1 once even when its Durable
 * Object's claim or mark was lost (the object reset mid-handler). Each batch
 * also deletes a few expired marks: the table holds the events of one dedupe
 * TTL.
 */
export class D1Marks {
  constructor(private readonly db: D1Database) {}

  /** `statements` and the mark of `key` for `ttlMs`, as one batch. */
  async commit(key: string, ttlMs: number, statements: readonly D1PreparedStatement[]): Promise<void> {
    const now = Date.now();
    await this.db.batch([
      this.db.prepare(`CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)`),
      this.db.prepare(`DELETE FROM ${TABLE} WHERE key IN (SELECT key FROM ${TABLE} WHERE expires_at <= ? LIMIT ${PURGE_PER_BATCH})`).bind(now),
      this.db.prepare(`DELETE FROM ${TABLE} WHERE key = ? AND expires_at <= ?`).bind(key, now),
      ...statements,
      this.db.prepare(`INSERT INTO ${TABLE} (key, expires_at) VALUES (?, ?)`).bind(key, now + ttlMs),
    ]);
  }

  /** Whether `key` is marked handled: what a failed batch is asked, to tell a second run from a failure. */
  async has(key: string): Promise<boolean> {
    const row = await this.db.prepare(`SELECT 1 AS marked FROM ${TABLE} WHERE key = ? AND expires_at > ?`).bind(key, Date.now()).first();
    return row !== null;
  }
}
