import type { OrderAttempt } from '@paymount/core';
import { isUnsettled } from '@paymount/core/stores';
import type { SqlStorage } from './workers-types';

/**
 * The unsettled attempts of every order, in one object: with one object per
 * order nothing else can list them (the OrderAttemptStore's `unsettled()`).
 * An order's object writes its attempt first and this copy after, so a copy
 * is at worst behind by a write that failed (that write's call rejected).
 * Bounded by the attempts' own TTLs: each copy keeps its attempt's deadline,
 * is left out of reads past it and deleted by the alarm; a settled attempt
 * leaves the index at once.
 */
export class UnsettledIndex {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      'CREATE TABLE IF NOT EXISTS paymount_unsettled (order_id TEXT PRIMARY KEY, updated_at INTEGER NOT NULL, attempt TEXT NOT NULL, expires_at INTEGER NOT NULL)',
    );
    sql.exec('CREATE INDEX IF NOT EXISTS paymount_unsettled_by_change ON paymount_unsettled (updated_at)');
  }

  track(attempt: OrderAttempt, expiresAt: number): void {
    if (!isUnsettled(attempt)) return this.forget(attempt.referenceOrderId);
    this.sql.exec(
      'INSERT INTO paymount_unsettled (order_id, updated_at, attempt, expires_at) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (order_id) DO UPDATE SET updated_at = excluded.updated_at, attempt = excluded.attempt, expires_at = excluded.expires_at',
      attempt.referenceOrderId,
      attempt.updatedAt,
      JSON.stringify(attempt),
      expiresAt,
    );
  }

  forget(referenceOrderId: string): void {
    this.sql.exec('DELETE FROM paymount_unsettled WHERE order_id = ?', referenceOrderId);
  }

  list(now: number, changedBefore: number, limit: number): OrderAttempt[] {
    return this.sql
      .exec<{ attempt: string }>(
        'SELECT attempt FROM paymount_unsettled WHERE updated_at <= ? AND expires_at > ? ORDER BY updated_at, order_id LIMIT ?',
        changedBefore,
        now,
        limit,
      )
      .toArray()
      .map((row) => JSON.parse(row.attempt) as OrderAttempt);
  }

  deleteExpired(now: number): void {
    this.sql.exec('DELETE FROM paymount_unsettled WHERE expires_at <= ?', now);
  }

  nextDeadline(): number | undefined {
    const [row] = this.sql.exec<{ next: number | null }>('SELECT MIN(expires_at) AS next FROM paymount_unsettled').toArray();
    return row?.next ?? undefined;
  }
}
