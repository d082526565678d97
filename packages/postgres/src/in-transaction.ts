import type { PaymentEventContext } from '@paymount/core';
import type { PostgresQueryable } from './database';

/** A handler's context when it runs in paymount's transaction: `db` is that transaction. */
export interface PostgresEventContext<TContext = unknown> extends PaymentEventContext<TContext> {
  db: PostgresQueryable;
}

const isQueryable = (db: unknown): db is PostgresQueryable =>
  typeof db === 'object' && db !== null && typeof (db as Record<string, unknown>).query === 'function';

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
export function inTransaction<TEvent, TContext>(
  handler: (event: TEvent, ctx: PostgresEventContext<TContext>) => unknown,
): (event: TEvent, ctx: PaymentEventContext<TContext>) => Promise<unknown> {
  return async (event, ctx) => {
    const { db } = ctx;
    if (!isQueryable(db)) {
      throw new Error(
        'this handler writes in the transaction that marks its event handled, but the `store` option does not give one: ' +
          'set `store` to createPostgresStores(db).idempotency',
      );
    }
    return handler(event, { ...ctx, db });
  };
}
