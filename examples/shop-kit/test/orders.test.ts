import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../src/catalog';
import { awaitingRefunds, OrderStore, refundableAmount, refundedAmount, type Order } from '../src/orders';
import type { ShopDatabase } from '../src/shop-database';
import { testDatabase } from './support/test-database';

const mug = CATALOG[0]!;

let database: ShopDatabase;
let store: OrderStore;
beforeAll(async () => {
  database = await testDatabase();
  store = new OrderStore(database.db);
});
afterAll(() => database?.close());

/** The order as the database holds it now. */
async function reread(order: Order): Promise<Order> {
  const stored = await store.get(order.id);
  if (!stored) throw new Error(`order ${order.id} is not in the database`);
  return stored;
}

describe('OrderStore', () => {
  it('creates pending orders priced from the catalogue, with ids the service accepts as referenceOrderId, and reads them back', async () => {
    const order = await store.create(mug);
    expect(order).toMatchObject({ status: 'pending', total: mug.unitPrice, currency: 'USD', refunds: [] });
    expect(order.id).toMatch(/^[A-Za-z0-9_-]{6,32}$/);
    expect((await store.create(mug)).id).not.toBe(order.id);
    expect(await store.get(order.id)).toEqual(order);
  });

  it('settles an order; paid is final, and keeps the payment’s transactionId', async () => {
    const order = await store.create(mug);
    await store.settle(order.id, 'failed', 'declined');
    expect(await reread(order)).toMatchObject({ status: 'failed', note: 'declined' });
    await store.settle(order.id, 'paid', 'received', 'txn_paid');
    await store.settle(order.id, 'failed', 'late notice', 'txn_other');
    await store.settle(order.id, 'pending', 'closed');
    expect(await reread(order)).toMatchObject({ status: 'paid', note: 'received', paymentTransactionId: 'txn_paid' });
    expect(await store.findByPayment('txn_paid')).toEqual(await reread(order));
    expect(await store.findByPayment('txn_other')).toBeUndefined();
  });

  it('refunds: partially, then in full; a failed one gives nothing back; each settles once', async () => {
    const created = await store.create(mug); // 12.50
    await store.settle(created.id, 'paid', 'received', 'txn_paid');
    await store.requestRefund(created.id, 'r1', 500);
    let order = await reread(created);
    expect([order.status, awaitingRefunds(order), refundableAmount(order)]).toEqual(['paid', 1, 750]);

    await store.settleRefund(order.id, 'r1', { state: 'succeeded', transactionId: 'txn_r1', amount: 500 });
    order = await reread(order);
    expect([order.status, refundedAmount(order), awaitingRefunds(order)]).toEqual(['partially_refunded', 500, 0]);
    // A redelivered webhook, even claiming another outcome, changes nothing.
    await store.settleRefund(order.id, 'r1', { state: 'failed', reason: 'late' });
    expect((await reread(order)).refunds).toEqual([{ requestId: 'r1', amount: 500, state: 'succeeded', transactionId: 'txn_r1' }]);

    await store.requestRefund(order.id, 'r2', 750);
    await store.settleRefund(order.id, 'r2', { state: 'failed', reason: 'REFUND_DECLINED' });
    order = await reread(order);
    expect([order.status, refundedAmount(order), refundableAmount(order)]).toEqual(['partially_refunded', 500, 750]);

    await store.requestRefund(order.id, 'r3', 750);
    await store.settleRefund(order.id, 'r3', { state: 'succeeded' });
    order = await reread(order);
    expect([order.status, refundedAmount(order), refundableAmount(order)]).toEqual(['refunded', 1250, 0]);
    expect(order.refunds.map((refund) => refund.requestId)).toEqual(['r1', 'r2', 'r3']);
    // Refunded is on the paid side: no payment event reopens it.
    await store.settle(order.id, 'pending', 'closed');
    expect((await reread(order)).status).toBe('refunded');
  });

  it('records a refund it did not ask for (made from the service’s dashboard) as its event reports it', async () => {
    const order = await store.create(mug);
    await store.settle(order.id, 'paid', 'received', 'txn_paid_elsewhere');
    await store.settleRefund(order.id, 'elsewhere', { state: 'succeeded', amount: 250 });
    await store.settleRefund(order.id, 'no-amount', { state: 'succeeded' });
    const stored = await reread(order);
    expect(stored.refunds).toEqual([{ requestId: 'elsewhere', amount: 250, state: 'succeeded' }]);
    expect(stored.status).toBe('partially_refunded');
  });

  it('writes in the caller’s transaction: rolled back with it, nothing is kept', async () => {
    const order = await store.create(mug);
    const failure = new Error('the handler failed after its write');
    await expect(
      database.db.transaction(async (tx) => {
        await store.within(tx).settle(order.id, 'paid', 'received', 'txn_rolled_back');
        expect((await store.within(tx).get(order.id))?.status).toBe('paid');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await reread(order)).toMatchObject({ status: 'pending', note: 'Awaiting payment.' });
    expect(await store.findByPayment('txn_rolled_back')).toBeUndefined();
  });

  it('ignores unknown ids', async () => {
    expect(await store.settle('ord_missing', 'paid', 'x')).toBeUndefined();
    expect(await store.settleRefund('ord_missing', 'r1', { state: 'succeeded', amount: 1 })).toBeUndefined();
  });
});
