import { describe, expect, it } from 'vitest';
import { CATALOG } from '../src/catalog';
import { awaitingRefunds, OrderStore, refundableAmount, refundedAmount } from '../src/orders';

const mug = CATALOG[0]!;

describe('OrderStore', () => {
  it('creates pending orders priced from the catalogue, with ids the service accepts as referenceOrderId', () => {
    const store = new OrderStore();
    const order = store.create(mug);
    expect(order).toMatchObject({ status: 'pending', total: mug.unitPrice, currency: 'USD', refunds: [] });
    expect(order.id).toMatch(/^[A-Za-z0-9_-]{6,32}$/);
    expect(store.create(mug).id).not.toBe(order.id);
    expect(store.get(order.id)).toBe(order);
  });

  it('settles an order; paid is final, and keeps the payment’s transactionId', () => {
    const store = new OrderStore();
    const order = store.create(mug);
    store.settle(order.id, 'failed', 'declined');
    expect(order).toMatchObject({ status: 'failed', note: 'declined' });
    store.settle(order.id, 'paid', 'received', 'txn_paid');
    store.settle(order.id, 'failed', 'late notice', 'txn_other');
    store.settle(order.id, 'pending', 'closed');
    expect(order).toMatchObject({ status: 'paid', note: 'received', paymentTransactionId: 'txn_paid' });
    expect(store.findByPayment('txn_paid')).toBe(order);
    expect(store.findByPayment('txn_other')).toBeUndefined();
  });

  it('refunds: partially, then in full; a failed one gives nothing back; each settles once', () => {
    const store = new OrderStore();
    const order = store.create(mug); // 12.50
    store.settle(order.id, 'paid', 'received', 'txn_paid');
    store.requestRefund(order.id, 'r1', 500);
    expect([order.status, awaitingRefunds(order), refundableAmount(order)]).toEqual(['paid', 1, 750]);

    store.settleRefund(order.id, 'r1', { state: 'succeeded', transactionId: 'txn_r1', amount: 500 });
    expect([order.status, refundedAmount(order), awaitingRefunds(order)]).toEqual(['partially_refunded', 500, 0]);
    // A redelivered webhook, even claiming another outcome, changes nothing.
    store.settleRefund(order.id, 'r1', { state: 'failed', reason: 'late' });
    expect(order.refunds).toEqual([{ requestId: 'r1', amount: 500, state: 'succeeded', transactionId: 'txn_r1' }]);

    store.requestRefund(order.id, 'r2', 750);
    store.settleRefund(order.id, 'r2', { state: 'failed', reason: 'REFUND_DECLINED' });
    expect([order.status, refundedAmount(order), refundableAmount(order)]).toEqual(['partially_refunded', 500, 750]);

    store.requestRefund(order.id, 'r3', 750);
    store.settleRefund(order.id, 'r3', { state: 'succeeded' });
    expect([order.status, refundedAmount(order), refundableAmount(order)]).toEqual(['refunded', 1250, 0]);
    // Refunded is on the paid side: no payment event reopens it.
    store.settle(order.id, 'pending', 'closed');
    expect(order.status).toBe('refunded');
  });

  it('records a refund it did not ask for (made from the service’s dashboard) as its event reports it', () => {
    const store = new OrderStore();
    const order = store.create(mug);
    store.settle(order.id, 'paid', 'received', 'txn_paid');
    store.settleRefund(order.id, 'elsewhere', { state: 'succeeded', amount: 250 });
    store.settleRefund(order.id, 'no-amount', { state: 'succeeded' });
    expect(order.refunds).toEqual([{ requestId: 'elsewhere', amount: 250, state: 'succeeded' }]);
    expect(order.status).toBe('partially_refunded');
  });

  it('forgets the oldest order past its bound', () => {
    const store = new OrderStore(2);
    const first = store.create(mug);
    const second = store.create(mug);
    const third = store.create(mug);
    expect(store.get(first.id)).toBeUndefined();
    expect(store.get(second.id)).toBe(second);
    expect(store.get(third.id)).toBe(third);
  });

  it('ignores unknown ids', () => {
    const store = new OrderStore();
    expect(store.settle('ord_missing', 'paid', 'x')).toBeUndefined();
    expect(store.settleRefund('ord_missing', 'r1', { state: 'succeeded', amount: 1 })).toBeUndefined();
    store.requestRefund('ord_missing', 'r1', 1);
  });
});
