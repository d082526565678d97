import { describe, expect, it } from 'vitest';
import { CATALOG } from '../src/catalog';
import { OrderStore } from '../src/orders';

const mug = CATALOG[0]!;

describe('OrderStore', () => {
  it('creates pending orders priced from the catalogue, with ids the service accepts as referenceOrderId', () => {
    const store = new OrderStore();
    const order = store.create(mug);
    expect(order).toMatchObject({ status: 'pending', total: mug.unitPrice, currency: 'USD', version: 1 });
    expect(order.id).toMatch(/^[A-Za-z0-9_-]{6,32}$/);
    expect(store.create(mug).id).not.toBe(order.id);
    expect(store.get(order.id)).toBe(order);
  });

  it('settles an order and bumps its version; paid is final', () => {
    const store = new OrderStore();
    const order = store.create(mug);
    store.settle(order.id, 'failed', 'declined');
    expect(order).toMatchObject({ status: 'failed', note: 'declined', version: 2 });
    store.settle(order.id, 'paid', 'received');
    store.settle(order.id, 'failed', 'late notice');
    store.settle(order.id, 'pending', 'closed');
    expect(order).toMatchObject({ status: 'paid', note: 'received', version: 3 });
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
    expect(new OrderStore().settle('ord_missing', 'paid', 'x')).toBeUndefined();
  });
});
