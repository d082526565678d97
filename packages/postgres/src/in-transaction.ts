import type { PaymentEventContext } from '@paymount/core';
import { inEventCommit } from '@paymount/core/stores';
import type { PostgresQueryable } from './database';

/** A handler's context when it runs in paymount's transaction: `db` is that transaction. */
export interface PostgresEventContext<TContext = unknown> extends PaymentEventContext<TContext> {
  db: PostgresQueryable;
}

/**
 * Types a handler that writes through `ctx.db`, the transaction in which
 * paymount marks the event handled (the Postgres store's runHandled): its
 * writes and that mark commit together, or roll back together when it throws.
 * Run with another store, it throws rather than write outside a transaction.
 *
 * ```ts
 * on: { 'payment.succeeded': inTransaction(async (event, { db }) => { await db.query('update orders ...', [...]) }) }
 * ```
 */
export const inTransaction = inEventCommit({
  is: (db: unknown): db is PostgresQueryable =>
    typeof db === 'object' && db !== null && typeof (db as Record<string, unknown>).query === 'function',
  commit: 'transaction',
  store: 'createPostgresStores(db).idempotency',
});
