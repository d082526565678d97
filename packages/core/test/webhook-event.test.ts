import { describe, expect, it } from 'vitest';
import { WebhookPayloadError } from '../src/index';
import { eventTypeOf, normalizeEvent } from '../src/entries/internal';

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
      referenceOrderId: 'order-0001',
      transactionType: 'REFUND',
      transactionStatus: 'F',
      transactionResultCode: 'REFUND_DECLINED',
      transactionResultMsg: 'refund declined',
      amount: { priceCurrency: 'USD', totalAmount: 500, orderAmount: 450, tipAmount: 50 },
    };
    expect(normalizeEvent(payload, { deliveryId: 'd', timestamp: 1 })).toEqual({
      type: 'refund.failed',
      deliveryId: 'd',
      timestamp: 1,
      transactionId: 'txn_refund_1',
      originalTransactionId: 'txn_paid_1',
      transactionRequestId: 'refund-req-1',
      referenceOrderId: 'order-0001',
      transactionType: 'REFUND',
      transactionStatus: 'F',
      reason: { code: 'REFUND_DECLINED', message: 'refund declined' },
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

describe('normalizeEvent: the fields each event always has', () => {
  const origin = { deliveryId: 'd', timestamp: 1 };
  const reason = { code: 'CARD_DECLINED', message: 'card declined' };
  const sale = {
    transactionId: 'txn_1',
    transactionRequestId: 'req_1',
    referenceOrderId: 'order-0001',
    transactionType: 'SALE',
    amount: { orderAmount: 1250, priceCurrency: 'USD' },
  };
  const refund = { ...sale, transactionId: 'txn_r1', transactionRequestId: 'refund_1', originalTransactionId: 'txn_1', transactionType: 'REFUND' };
  const complete: Record<string, Record<string, unknown>> = {
    'payment.succeeded': { ...sale, transactionStatus: 'S' },
    'payment.failed': { ...sale, transactionStatus: 'F', reason },
    'payment.closed': { ...sale, transactionStatus: 'C', sessionId: 'cs_1', reason: { code: 'SESSION_EXPIRED', message: 'checkout session expired unpaid' } },
    'refund.succeeded': { ...refund, transactionStatus: 'S' },
    'refund.failed': { ...refund, transactionStatus: 'F', reason },
  };
  const required: Array<[string, string]> = [
    ...['payment.succeeded', 'payment.failed', 'payment.closed', 'refund.succeeded', 'refund.failed'].flatMap((type) =>
      ['transactionId', 'transactionRequestId', 'amount'].map((field): [string, string] => [type, field]),
    ),
    ['payment.succeeded', 'referenceOrderId'],
    ['payment.failed', 'referenceOrderId'],
    ['payment.closed', 'referenceOrderId'],
    ['payment.failed', 'reason'],
    ['payment.closed', 'reason'],
    ['payment.closed', 'sessionId'],
    ['refund.succeeded', 'originalTransactionId'],
    ['refund.failed', 'originalTransactionId'],
    ['refund.failed', 'reason'],
  ];

  it.each(Object.entries(complete))('builds %s from a complete body', (type, body) => {
    expect(normalizeEvent(body, origin)).toMatchObject({ type, ...body, payload: body });
  });

  it.each(required)('refuses %s without %s: a WebhookPayloadError naming the field, the rule "required"', (type, field) => {
    const { [field]: _left, ...body } = complete[type] ?? {};
    const error = errorOf(() => normalizeEvent(body, origin));
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toMatchObject({ reason: 'invalid_payload', code: 'WEBHOOK_INVALID_PAYLOAD', issues: [{ path: field, rule: 'required' }] });
    expect(error.message).toContain(type);
    expect(error.message).toContain(field);
  });

  it('refuses an empty id, and a reason without its message', () => {
    expect(errorOf(() => normalizeEvent({ ...complete['payment.succeeded'], referenceOrderId: '' }, origin)).issues).toEqual([
      { path: 'referenceOrderId', rule: 'min_length', message: 'must not be empty' },
    ]);
    expect(errorOf(() => normalizeEvent({ ...complete['payment.failed'], reason: { code: 'X' } }, origin)).issues).toEqual([
      { path: 'reason.message', rule: 'required', message: 'is required' },
    ]);
  });

  it('reads the reason from transactionResultCode and transactionResultMsg when there is no reason object', () => {
    const { reason: _reason, ...body } = complete['payment.failed'] ?? {};
    const event = normalizeEvent({ ...body, transactionResultCode: 'DO_NOT_HONOR', transactionResultMsg: 'do not honor' }, origin);
    expect(event).toMatchObject({ type: 'payment.failed', reason: { code: 'DO_NOT_HONOR', message: 'do not honor' } });
  });

  it('takes the session from the origin when the body does not name one, and the body\'s when it does', () => {
    const { sessionId: _sessionId, ...body } = complete['payment.closed'] ?? {};
    expect(normalizeEvent(body, { ...origin, sessionId: 'cs_attempt' })).toMatchObject({ sessionId: 'cs_attempt', payload: body });
    expect(normalizeEvent(complete['payment.closed'], { ...origin, sessionId: 'cs_attempt' })).toMatchObject({ sessionId: 'cs_1' });
  });

  it('takes a refund without referenceOrderId: the service refunds terminal sales, which have none', () => {
    const { referenceOrderId: _none, ...body } = complete['refund.succeeded'] ?? {};
    const event = normalizeEvent(body, origin);
    expect(event).toMatchObject({ type: 'refund.succeeded', originalTransactionId: 'txn_1' });
    expect(event).not.toHaveProperty('referenceOrderId');
  });

  it('asks nothing of an unknown event', () => {
    expect(normalizeEvent({ transactionType: 'VOID', transactionStatus: 'S' }, origin)).toMatchObject({ type: 'unknown' });
  });
});

function errorOf(fn: () => unknown): WebhookPayloadError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookPayloadError) return error;
    throw error;
  }
  throw new Error('expected a WebhookPayloadError');
}

describe('normalizeEvent: the payload shape', () => {
  it('refuses a payload of the wrong shape with issues naming the field', () => {
    const payload = { transactionId: 'txn_1', transactionType: 'SALE', transactionStatus: 5, extra: { kept: [1, 2] } };
    expect(() => normalizeEvent(payload, { deliveryId: 'd', timestamp: 0 })).toThrow(WebhookPayloadError);
    try {
      normalizeEvent(payload, { deliveryId: 'd', timestamp: 0 });
    } catch (error) {
      expect((error as WebhookPayloadError).issues).toContainEqual(expect.objectContaining({ path: 'transactionStatus' }));
    }
  });
});
