import { describe, expect, it } from 'vitest';
import { PaymentValidationError } from '@paymount/core';
import { CATALOG, type Product } from '../src/catalog';
import type { Order, OrderRefund, OrderStatus } from '../src/orders';
import { refundAmountFrom } from '../src/refund-amount';

const notebook = CATALOG[1]!; // 18.90 USD

/** An order as the store gives it back: the amount checks read only what it holds. */
function orderOf(product: Product, status: OrderStatus, refunds: OrderRefund[] = []): Order {
  return { id: 'ord_test', product, total: product.unitPrice, currency: product.currency, status, note: '', refunds, createdAt: new Date() };
}

function paidOrder(product: Product = notebook, refunds: OrderRefund[] = []): { order: Order } {
  return { order: { ...orderOf(product, 'paid', refunds), paymentTransactionId: 'txn_1' } };
}

/** The issues of the PaymentValidationError `attempt` throws. */
function issuesOf(attempt: () => unknown): PaymentValidationError['issues'] {
  try {
    attempt();
  } catch (error) {
    if (error instanceof PaymentValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a PaymentValidationError');
}

describe('refundAmountFrom', () => {
  it('full: everything that remains refundable, in minor units', () => {
    const { order } = paidOrder();
    expect(refundAmountFrom({ scope: 'full' }, order)).toEqual({ scope: 'full', amount: 1890 });
  });

  it('partial: the amount typed in major units, converted with the currency’s exponent', () => {
    const { order } = paidOrder();
    expect(refundAmountFrom({ scope: 'partial', amount: '5.25' }, order)).toEqual({ scope: 'partial', amount: 525 });
    expect(refundAmountFrom({ scope: 'partial', amount: ' 18.9 ' }, order)).toEqual({ scope: 'partial', amount: 1890 });
    expect(refundAmountFrom({ scope: 'partial', amount: '7' }, order)).toEqual({ scope: 'partial', amount: 700 });
  });

  it('refuses more decimals than the currency has, never rounding', () => {
    const { order } = paidOrder();
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '5.255' }, order))).toEqual([
      { path: 'amount', rule: 'max_decimals', message: 'USD has 2 decimal place(s); the value has more' },
    ]);
    const yen = paidOrder({ ...notebook, currency: 'JPY', unitPrice: 1890 }).order;
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '5.5' }, yen))[0]).toMatchObject({ rule: 'max_decimals' });
    expect(refundAmountFrom({ scope: 'partial', amount: '500' }, yen).amount).toBe(500);
  });

  it('refuses what is not a non-negative decimal number', () => {
    const { order } = paidOrder();
    for (const amount of ['abc', '-1', '1e3', '5,00', '$5', '0x10', '.5']) {
      expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount }, order)), amount).toEqual([
        { path: 'amount', rule: 'decimal', message: 'must be a non-negative decimal number such as "12.34"' },
      ]);
    }
  });

  it('refuses zero and a missing amount', () => {
    const { order } = paidOrder();
    for (const amount of ['0', '0.00']) {
      expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount }, order))).toEqual([
        { path: 'amount', rule: 'positive', message: 'must be more than 0' },
      ]);
    }
    for (const form of [{ scope: 'partial', amount: '' }, { scope: 'partial', amount: '  ' }, { scope: 'partial' }]) {
      expect(issuesOf(() => refundAmountFrom(form, order))[0]).toMatchObject({ path: 'amount', rule: 'required' });
    }
  });

  it('refuses more than what remains, counting refunds made and refunds awaiting their webhook', () => {
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '18.91' }, paidOrder().order))).toEqual([
      { path: 'amount', rule: 'max_refundable', message: 'must be at most 18.90 USD, what remains refundable' },
    ]);
    const made: OrderRefund = { requestId: 'r1', amount: 500, state: 'succeeded' };
    const { order } = paidOrder(notebook, [made, { requestId: 'r2', amount: 390, state: 'requested' }]);
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '10.01' }, order))[0]).toMatchObject({
      rule: 'max_refundable',
      message: 'must be at most 10.00 USD, what remains refundable',
    });
    expect(refundAmountFrom({ scope: 'partial', amount: '10.00' }, order).amount).toBe(1000);
    expect(refundAmountFrom({ scope: 'full' }, order).amount).toBe(1000);
    // A failed refund gave nothing back: its amount is refundable again.
    const declined = paidOrder(notebook, [made, { requestId: 'r2', amount: 390, state: 'failed', reason: 'declined' }]).order;
    expect(refundAmountFrom({ scope: 'full' }, declined).amount).toBe(1390);
  });

  it('refuses any refund of an order with nothing refundable: unpaid, or refunded in full', () => {
    const unpaid = orderOf(notebook, 'pending');
    expect(issuesOf(() => refundAmountFrom({ scope: 'full' }, unpaid))).toEqual([
      { path: 'amount', rule: 'nothing_refundable', message: 'nothing of this order remains to refund' },
    ]);
    const order = orderOf(notebook, 'refunded', [{ requestId: 'r1', amount: 1890, state: 'succeeded' }]);
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '1' }, order))[0]).toMatchObject({ rule: 'nothing_refundable' });
  });

  it('refuses a form that is not one of the two refund forms', () => {
    const { order } = paidOrder();
    expect(issuesOf(() => refundAmountFrom({ scope: 'most' }, order))[0]).toMatchObject({ path: 'scope', rule: 'one_of' });
    expect(issuesOf(() => refundAmountFrom(undefined, order))[0]).toMatchObject({ rule: 'required' });
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: ['1', '2'] }, order))[0]).toMatchObject({ path: 'amount', rule: 'type' });
    expect(issuesOf(() => refundAmountFrom({ scope: 'partial', amount: '1'.repeat(33) }, order))[0]).toMatchObject({ path: 'amount', rule: 'max_length' });
  });
});
