import { describe, expect, it } from 'vitest';
import { eventTypeOf, normalizeEvent } from '../src/webhooks/event';

describe('eventTypeOf', () => {
  it.each([
    ['SALE', 'S', 'payment.succeeded'],
    ['SALE', 'F', 'payment.failed'],
    ['SALE', 'C', 'payment.closed'],
    ['sale', 's', 'payment.succeeded'],
    ['REFUND', 'S', 'refund.succeeded'],
    ['REFUND', 'F', 'refund.failed'],
    ['REFUND', 'C', 'unknown'],
    ['SALE', 'P', 'unknown'],
    ['SALE', 'I', 'unknown'],
    ['VOID', 'S', 'unknown'],
  ])('%s/%s is %s', (type, status, expected) => {
    expect(eventTypeOf(type, status)).toBe(expected);
  });

  it('is unknown when the type or the status is absent', () => {
    expect(eventTypeOf(undefined, 'S')).toBe('unknown');
    expect(eventTypeOf('SALE', undefined)).toBe('unknown');
  });
});

describe('normalizeEvent', () => {
  it('keeps unknown fields in the payload and leaves absent fields absent', () => {
    const payload = { transactionType: 'SALE', transactionStatus: 'X', newField: [1, 2] };
    const event = normalizeEvent(payload, { deliveryId: 'd', timestamp: 1 });
    expect(event).toEqual({ type: 'unknown', deliveryId: 'd', timestamp: 1, transactionType: 'SALE', transactionStatus: 'X', payload });
    expect('transactionId' in event).toBe(false);
  });

  it('carries a refund\'s own transactionId and the refunded payment\'s originalTransactionId', () => {
    const payload = {
      transactionId: 'txn_refund_1',
      originalTransactionId: 'txn_paid_1',
      transactionRequestId: 'refund-req-1',
      transactionType: 'REFUND',
      transactionStatus: 'F',
      amount: { priceCurrency: 'USD', totalAmount: 500, orderAmount: 450, tipAmount: 50 },
    };
    expect(normalizeEvent(payload, { deliveryId: 'd', timestamp: 1 })).toEqual({
      type: 'refund.failed',
      deliveryId: 'd',
      timestamp: 1,
      transactionId: 'txn_refund_1',
      originalTransactionId: 'txn_paid_1',
      transactionRequestId: 'refund-req-1',
      transactionType: 'REFUND',
      transactionStatus: 'F',
      amount: payload.amount,
      payload,
    });
  });

  it('refuses an originalTransactionId that is not a string', () => {
    expect(() => normalizeEvent({ transactionType: 'REFUND', originalTransactionId: 42 }, { deliveryId: 'd', timestamp: 1 })).toThrow(
      /originalTransactionId/,
    );
  });
});
