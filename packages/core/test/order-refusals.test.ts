import { describe, expect, it } from 'vitest';
import type { OrderAttempt } from '../src/index';
import { errorToAnswer, isRefusal, notPayable, type OrderRefusal, refusalError, unlessRefused } from '../src/entries/internal';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const paid: OrderAttempt = { referenceOrderId: 'order-0001', kind: 'wallet', transactionRequestId: 'pm-0', state: 'succeeded', updatedAt: 0 };

function answerTo(refusal: OrderRefusal) {
  const { response } = errorToAnswer(refusalError(refusal), silent);
  return { status: response.status, retryAfter: response.headers['retry-after'], body: JSON.parse(response.body) as unknown };
}

describe('the answer to each refusal of the order guard', () => {
  it.each<[OrderRefusal, number, string | undefined, { code: string; message: string }]>([
    [{ refused: 'not-payable' }, 409, undefined, { code: 'ORDER_NOT_PAYABLE', message: 'This order cannot be paid now (already paid, cancelled or refunded).' }],
    [{ refused: 'already-paid', attempt: paid }, 409, undefined, { code: 'ORDER_ALREADY_PAID', message: 'This order is already paid.' }],
    [
      { refused: 'pending', retryAfterSeconds: 7 },
      409,
      '7',
      { code: 'PAYMENT_PENDING', message: "The order's last payment is still being processed; nothing was sent. Its outcome is known shortly." },
    ],
    [
      { refused: 'in-progress', retryAfterSeconds: 2 },
      409,
      '2',
      { code: 'PAYMENT_IN_PROGRESS', message: 'A payment of this order is being processed; nothing was sent. Retry shortly.' },
    ],
    [
      { refused: 'not-cancelled' },
      502,
      undefined,
      { code: 'CHECKOUT_NOT_CANCELLED', message: 'The service did not expire the checkout session; it stays open until it expires.' },
    ],
  ])('%j → %i', (refusal, status, retryAfter, error) => {
    expect(answerTo(refusal)).toEqual({ status, retryAfter, body: { error } });
  });
});

describe('unlessRefused', () => {
  it('passes what the guard did through and throws a refusal as its answer', () => {
    const done = { outcome: 'no-open-checkout' as const };
    expect(unlessRefused(done)).toBe(done);
    expect(() => unlessRefused<typeof done>({ refused: 'not-payable' })).toThrow(expect.objectContaining({ httpStatus: 409, code: 'ORDER_NOT_PAYABLE' }));
  });
});

describe('notPayable', () => {
  it("refuses only an order the merchant marked payable: false; an order that says nothing is payable", () => {
    expect(notPayable({ payable: false })).toEqual({ refused: 'not-payable' });
    expect(notPayable({ payable: true })).toBeUndefined();
    expect(notPayable({})).toBeUndefined();
    expect(isRefusal({ refused: 'not-payable' })).toBe(true);
    expect(isRefusal({ outcome: 'cancelled', sessionId: 's' })).toBe(false);
  });
});
