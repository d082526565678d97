import type { PaymentRoutesOptions, PaymentSucceededEvent, RefundSucceededEvent } from '@paymount/core';
import { describe, expectTypeOf, it } from 'vitest';
import { inTransaction, type PostgresQueryable } from '../src';

interface AppRequest {
  user: string;
}

describe('inTransaction()', () => {
  it('gives a handler its own event type, the adapter context, and ctx.db as the transaction', () => {
    const on: PaymentRoutesOptions<AppRequest>['on'] = {
      'payment.succeeded': inTransaction(async (event, { db, context }) => {
        expectTypeOf(event).toEqualTypeOf<PaymentSucceededEvent>();
        expectTypeOf(db).toEqualTypeOf<PostgresQueryable>();
        expectTypeOf(context).toEqualTypeOf<AppRequest | undefined>();
        await db.query('UPDATE orders SET paid = true WHERE id = $1', [event.referenceOrderId]);
      }),
      'refund.succeeded': inTransaction((event) => {
        expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
      }),
    };
    expectTypeOf(on).not.toBeUndefined();
  });

  it('a handler taking the wrong event type does not compile', () => {
    const on: PaymentRoutesOptions['on'] = {
      // @ts-expect-error a refund handler cannot take a payment's event
      'payment.succeeded': inTransaction((event: RefundSucceededEvent) => event.originalTransactionId),
    };
    expectTypeOf(on).not.toBeUndefined();
  });
});
