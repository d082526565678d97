import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { get, post, saleBody, sessionBody, startReceiver, uniqueId } from './helpers';

const SALE = '/v1/checkout/sale';
const REFUND = '/v1/checkout/refund';
const QUERY = '/v1/transaction/query';

// Service time stands still, so answer times are exact; no call-frequency limit, as this file makes well over 100 calls a second.
const START = Date.UTC(2030, 2, 1, 12);

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5, 5], clock: { now: () => START }, rateLimit: false });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const usd = (orderAmount: number, taxAmount = 0) => ({ orderAmount, taxAmount, priceCurrency: 'USD' });

/** A direct payment; answers its request body and its transactionId. */
async function pay(amount = usd(2500), overrides: Record<string, unknown> = {}) {
  const body = saleBody(sandbox, { amount, ...overrides });
  const answer = await post(sandbox, SALE, body);
  expect(answer.json.code).toBe('0');
  return { body, transactionId: String(answer.json.data.transactionId), status: answer.json.data.transactionStatus };
}

function refundBody(original: Record<string, string>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionRequestId: uniqueId('rf'), ...original, ...overrides };
}

/** Submits a form of the hosted page (`pay` or `cancel`), as the shopper's browser would. */
async function hosted(checkoutUrl: unknown, action: 'pay' | 'cancel') {
  const res = await request(`${String(checkoutUrl)}/${action}`, { method: 'POST' });
  await res.body.dump();
}

const refundsOf = (originalTransactionId: string) => sandbox.refunds().filter((r) => r.originalTransactionId === originalTransactionId);

async function query(params: Record<string, string>) {
  return get(sandbox, QUERY, { appId: sandbox.appId, merchantId: sandbox.merchantId, ...params });
}

async function refused(body: Record<string, unknown>, status: number, code: string) {
  const before = sandbox.refunds().length;
  const answer = await post(sandbox, REFUND, body);
  expect([answer.status, answer.json.code]).toEqual([status, code]);
  expect(sandbox.refunds()).toHaveLength(before);
  return answer;
}

describe('refunds', () => {
  it('a partial refund is its own transaction, answered with the refund fields; the payment reads PART_REFUNDED', async () => {
    const { body: sale, transactionId } = await pay();
    const body = refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 1000 }, description: 'one mug broke' });
    const answer = await post(sandbox, REFUND, body);
    expect([answer.status, answer.json.code]).toEqual([200, '0']);
    const data = answer.json.data;
    expect(data).toEqual({
      transactionId: expect.stringMatching(/^txn_/),
      transactionRequestId: body.transactionRequestId,
      originalTransactionId: transactionId,
      transactionType: 'REFUND',
      transactionStatus: 'S',
      amount: { priceCurrency: 'USD', totalAmount: 1000, orderAmount: 1000, taxAmount: 0, surchargeAmount: 0, tipAmount: 0 },
      createTime: new Date(START).toISOString(),
      completeTime: new Date(START).toISOString(),
      description: 'one mug broke',
    });
    expect(data.transactionId).not.toBe(transactionId);
    expect(refundsOf(transactionId)).toEqual([
      expect.objectContaining({ transactionId: data.transactionId, referenceOrderId: sale.referenceOrderId, environment: 'test', transactionStatus: 'S' }),
    ]);
    expect((await query({ transactionId })).json.data.relatedTransactionStatus).toBe('PART_REFUNDED');
  });

  it('several refunds add up to the payable total (REFUNDED); one more minor unit is an over-refund (T06)', async () => {
    const { transactionId } = await pay(usd(2500, 200));
    expect((await query({ transactionId })).json.data).not.toHaveProperty('relatedTransactionStatus');
    for (const part of [{ orderAmount: 1000 }, { orderAmount: 1500 }, { taxAmount: 150, surchargeAmount: 50 }]) {
      const answer = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', ...part } }));
      expect(answer.json.data.transactionStatus).toBe('S');
      expect((await query({ transactionId })).json.data.relatedTransactionStatus).toBe(
        refundsOf(transactionId).length === 3 ? 'REFUNDED' : 'PART_REFUNDED',
      );
    }
    const over = await refused(refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 1 } }), 409, 'T06');
    expect(over.json.msg).toContain('fully refunded');
    await refused(refundBody({ originalTransactionId: transactionId }), 409, 'T06');
  });

  it('T06: a refund over the remaining balance is refused, records nothing, and leaves the balance as it was', async () => {
    const { transactionId } = await pay();
    await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 500 } }));
    const over = await refused(refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 2001 } }), 409, 'T06');
    expect(over.json.msg).toContain('2000');
    const rest = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 2000 } }));
    expect(rest.json.data.transactionStatus).toBe('S');
    expect((await query({ transactionId })).json.data.relatedTransactionStatus).toBe('REFUNDED');
  });

  it('without an amount, refunds the whole remaining balance in the payment’s currency', async () => {
    const { transactionId } = await pay({ orderAmount: 2500, taxAmount: 200, priceCurrency: 'EUR' });
    await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'EUR', orderAmount: 700 } }));
    const answer = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }));
    expect(answer.json.data.amount).toEqual({ priceCurrency: 'EUR', totalAmount: 2000, orderAmount: 2000, taxAmount: 0, surchargeAmount: 0, tipAmount: 0 });
    expect((await query({ transactionId })).json.data.relatedTransactionStatus).toBe('REFUNDED');
  });

  it('names the original by its transactionRequestId, including a paid hosted session’s create-session id', async () => {
    const { body } = await pay();
    const direct = await post(sandbox, REFUND, refundBody({ originalTransactionRequestId: String(body.transactionRequestId) }));
    expect(direct.json.data).toMatchObject({ transactionStatus: 'S', amount: { totalAmount: 2500 } });

    const session = sessionBody(sandbox);
    const created = await post(sandbox, '/v1/checkout/create-session', session);
    await hosted(created.json.data.checkoutUrl, 'pay');
    const ofSession = await post(sandbox, REFUND, refundBody({ originalTransactionRequestId: String(session.transactionRequestId) }));
    const charge = sandbox.charges().find((c) => c.transactionRequestId === session.transactionRequestId);
    expect(ofSession.json.data).toMatchObject({ originalTransactionId: charge?.transactionId, amount: { totalAmount: 2700 } });
  });

  it('refunds a terminal sale too; its refund has no referenceOrderId', async () => {
    const transactionRequestId = uniqueId('term');
    await post(sandbox, '/v1/semi-integration/transaction/sale', { ...refundBody({}), transactionRequestId, amount: 1500, priceCurrency: 'USD' });
    const body = refundBody({ originalTransactionRequestId: transactionRequestId }, { notifyUrl: receiver.url });
    const answer = await post(sandbox, REFUND, body);
    expect(answer.json.data).toMatchObject({ transactionStatus: 'S', amount: { totalAmount: 1500 } });
    await sandbox.waitForDeliveries();
    const delivery = sandbox.deliveries().find((d) => d.payload.transactionRequestId === body.transactionRequestId);
    expect(delivery?.payload).toMatchObject({ transactionType: 'REFUND', originalTransactionId: answer.json.data.originalTransactionId });
    expect(delivery?.payload).not.toHaveProperty('referenceOrderId');
  });

  it('with both ids the originalTransactionId wins; with neither, V01 names originalTransactionId', async () => {
    const first = await pay();
    const second = await pay();
    const answer = await post(
      sandbox,
      REFUND,
      refundBody({ originalTransactionId: first.transactionId, originalTransactionRequestId: String(second.body.transactionRequestId) }),
    );
    expect(answer.json.data.originalTransactionId).toBe(first.transactionId);
    expect(refundsOf(second.transactionId)).toHaveLength(0);
    const none = await refused(refundBody({}), 400, 'V01');
    expect(none.json.msg).toContain('originalTransactionId');
    expect(none.json.msg).toContain('originalTransactionRequestId');
  });

  it('T02: a failed payment cannot be refunded', async () => {
    const { body, transactionId, status } = await pay(usd(8888));
    expect(status).toBe('F');
    await refused(refundBody({ originalTransactionId: transactionId }), 409, 'T02');
    await refused(refundBody({ originalTransactionRequestId: String(body.transactionRequestId) }), 409, 'T02');
  });

  it('T03: a hosted session closed unpaid (cancelled or expired) cannot be refunded; T04: nor an open one', async () => {
    const open = sessionBody(sandbox);
    const created = await post(sandbox, '/v1/checkout/create-session', open);
    await refused(refundBody({ originalTransactionRequestId: String(open.transactionRequestId) }), 409, 'T04');

    await hosted(created.json.data.checkoutUrl, 'cancel');
    await refused(refundBody({ originalTransactionRequestId: String(open.transactionRequestId) }), 409, 'T03');

    const expiring = sessionBody(sandbox);
    const expiringAnswer = await post(sandbox, '/v1/checkout/create-session', expiring);
    await post(sandbox, '/v1/checkout/expire-session', {
      appId: sandbox.appId,
      merchantId: sandbox.merchantId,
      sessionId: expiringAnswer.json.data.sessionId,
    });
    const sessionTransaction = (await query({ transactionRequestId: String(expiring.transactionRequestId) })).json.data.transactionId;
    await refused(refundBody({ originalTransactionId: String(sessionTransaction) }), 409, 'T03');
  });

  it('T01: an unknown original, or one of the other environment', async () => {
    await refused(refundBody({ originalTransactionId: 'txn_nope' }), 404, 'T01');
    await refused(refundBody({ originalTransactionRequestId: 'never_sent' }), 404, 'T01');
    const production = saleBody(sandbox);
    const paid = await post(sandbox, SALE, production, { authorization: `Bearer ${sandbox.productionApiKey}` });
    await refused(refundBody({ originalTransactionId: String(paid.json.data.transactionId) }), 404, 'T01');
    const inProduction = await post(sandbox, REFUND, refundBody({ originalTransactionId: String(paid.json.data.transactionId) }), {
      authorization: `Bearer ${sandbox.productionApiKey}`,
    });
    expect(inProduction.json.data).toMatchObject({ transactionStatus: 'S' });
  });

  it('T05: a refund cannot be refunded', async () => {
    const { transactionId } = await pay();
    const refund = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 100 } }));
    await refused(refundBody({ originalTransactionId: String(refund.json.data.transactionId) }), 409, 'T05');
  });

  it('T07: the refund’s currency must be the payment’s', async () => {
    const { transactionId } = await pay();
    const answer = await refused(refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'EUR', orderAmount: 100 } }), 400, 'T07');
    expect(answer.json.msg).toContain('USD');
  });

  it.each([
    ['a decimal amount', { priceCurrency: 'USD', orderAmount: 10.5 }, 'V05', 'amount.orderAmount'],
    ['a negative tip', { priceCurrency: 'USD', orderAmount: 100, tipAmount: -1 }, 'V05', 'amount.tipAmount'],
    ['a decimal totalAmount', { priceCurrency: 'USD', orderAmount: 100, totalAmount: 100.5 }, 'V05', 'amount.totalAmount'],
    ['totalAmount differing from the parts', { priceCurrency: 'USD', orderAmount: 100, taxAmount: 10, totalAmount: 100 }, 'V12', 'amount.totalAmount'],
    ['a totalAmount without parts', { priceCurrency: 'USD', totalAmount: 100 }, 'V12', 'amount.totalAmount'],
    ['no part at all', { priceCurrency: 'USD' }, 'V06', 'amount'],
    ['no currency', { orderAmount: 100 }, 'V01', 'amount.priceCurrency'],
    ['an unknown currency', { priceCurrency: 'XYZ', orderAmount: 100 }, 'V07', 'amount.priceCurrency'],
  ])('refuses %s (%s) and records nothing', async (_label, amount, code, field) => {
    const { transactionId } = await pay();
    const answer = await refused(refundBody({ originalTransactionId: transactionId }, { amount }), 400, code);
    expect(answer.json.msg).toContain(field);
  });

  it('accepts a totalAmount equal to the sum of the parts, tip included', async () => {
    const { transactionId } = await pay();
    const amount = { priceCurrency: 'USD', orderAmount: 100, taxAmount: 10, surchargeAmount: 5, tipAmount: 1, totalAmount: 116 };
    const answer = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { amount }));
    expect(answer.json.data.amount).toEqual(amount);
  });

  it.each([
    ['transactionRequestId of 65 characters', { transactionRequestId: 'r'.repeat(65) }, 'V03'],
    ['transactionRequestId with a dot', { transactionRequestId: 'refund.1' }, 'V04'],
    ['a non-public notifyUrl', { notifyUrl: 'https://10.0.0.1/hook' }, 'V10'],
    ['an empty attach', { attach: '' }, 'V03'],
    ['a description of 129 characters', { description: 'd'.repeat(129) }, 'V03'],
    ['another appId', { appId: 'app_other' }, 'B01'],
  ])('refuses %s', async (_label, overrides, code) => {
    const { transactionId } = await pay();
    await refused(refundBody({ originalTransactionId: transactionId }, overrides), code.startsWith('B') ? 403 : 400, code);
  });

  it('takes a 64-character transactionRequestId', async () => {
    const { transactionId } = await pay();
    const answer = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }, { transactionRequestId: 'r'.repeat(64) }));
    expect(answer.json.data.transactionRequestId).toBe('r'.repeat(64));
  });

  it('a repeated transactionRequestId answers the first result, refunds once and sends one webhook', async () => {
    const { transactionId } = await pay();
    const body = refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 400 }, notifyUrl: receiver.url });
    const first = await post(sandbox, REFUND, body);
    const again = await post(sandbox, REFUND, { ...body, amount: { priceCurrency: 'USD', orderAmount: 900 } });
    expect(again.json.data).toEqual(first.json.data);
    expect(again.json.traceId).not.toBe(first.json.traceId);
    expect(refundsOf(transactionId)).toHaveLength(1);
    await sandbox.waitForDeliveries();
    expect(sandbox.deliveries().filter((d) => d.payload.transactionRequestId === body.transactionRequestId)).toHaveLength(1);
  });

  it('I01: a refund’s transactionRequestId already used by a payment, and the other way round', async () => {
    const { body, transactionId } = await pay();
    await refused(refundBody({ originalTransactionId: transactionId }, { transactionRequestId: body.transactionRequestId }), 409, 'I01');
    const refund = refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 1 } });
    await post(sandbox, REFUND, refund);
    const sale = await post(sandbox, SALE, saleBody(sandbox, { transactionRequestId: refund.transactionRequestId }));
    expect([sale.status, sale.json.code]).toEqual([409, 'I01']);
  });
});

describe('sandbox refund amount', () => {
  it('a refund of 8888 is declined with F (REFUND_DECLINED), recorded, and refunds nothing', async () => {
    const { body: sale, transactionId } = await pay(usd(10_000));
    const body = refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 8000, taxAmount: 888 }, notifyUrl: receiver.url });
    const answer = await post(sandbox, REFUND, body);
    expect(answer.json.code).toBe('0');
    expect(answer.json.data).toMatchObject({
      transactionStatus: 'F',
      transactionResultCode: 'REFUND_DECLINED',
      transactionResultMsg: 'refund declined',
      amount: { totalAmount: 8888 },
    });
    expect(refundsOf(transactionId)).toEqual([expect.objectContaining({ transactionStatus: 'F', reason: { code: 'REFUND_DECLINED', message: 'refund declined' } })]);
    expect((await query({ transactionId })).json.data).not.toHaveProperty('relatedTransactionStatus');
    const refundQuery = await query({ transactionRequestId: String(body.transactionRequestId) });
    expect(refundQuery.json.data).toMatchObject({ transactionType: 'REFUND', transactionStatus: 'F', referenceOrderId: sale.referenceOrderId });

    const whole = await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }));
    expect(whole.json.data).toMatchObject({ transactionStatus: 'S', amount: { totalAmount: 10_000 } });

    await sandbox.waitForDeliveries();
    const hook = receiver.received.find((r) => r.rawBody.includes(String(body.transactionRequestId)));
    expect(JSON.parse(hook?.rawBody ?? '{}')).toMatchObject({ transactionType: 'REFUND', transactionStatus: 'F', transactionResultCode: 'REFUND_DECLINED' });
  });

  it('8888 over the remaining balance is an over-refund (T06), not a declined refund', async () => {
    const { transactionId } = await pay(usd(5000));
    await refused(refundBody({ originalTransactionId: transactionId }, { amount: { priceCurrency: 'USD', orderAmount: 8888 } }), 409, 'T06');
  });
});

describe('refund webhook', () => {
  it('goes to the refund’s notifyUrl with the refund’s own ids and the original’s, signed', async () => {
    const { body: sale, transactionId } = await pay(usd(2500), { notifyUrl: receiver.url });
    const body = refundBody(
      { originalTransactionId: transactionId },
      { amount: { priceCurrency: 'USD', orderAmount: 600 }, notifyUrl: receiver.url, attach: 'ticket-42', description: 'partial' },
    );
    const answer = await post(sandbox, REFUND, body);
    await sandbox.waitForDeliveries();
    const hook = receiver.received.find((r) => (JSON.parse(r.rawBody) as { transactionType?: string; transactionRequestId?: string }).transactionRequestId === body.transactionRequestId);
    expect(hook).toBeDefined();
    expect(hook?.headers['x-signature']).toBe(createHmac('sha256', sandbox.webhookSecret).update(hook?.rawBody ?? '').digest('hex'));
    expect(hook?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
    const payload = JSON.parse(hook?.rawBody ?? '{}') as Record<string, unknown>;
    expect(payload).toEqual({
      ...answer.json.data,
      referenceOrderId: sale.referenceOrderId,
      appId: sandbox.appId,
      merchantId: sandbox.merchantId,
      notifyTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(payload).toMatchObject({ transactionType: 'REFUND', originalTransactionId: transactionId, transactionStatus: 'S', amount: { totalAmount: 600 } });
    expect(payload.transactionId).not.toBe(transactionId);
  });

  it('is retried like any delivery until the receiver answers 200', async () => {
    const flaky = await startReceiver({ statuses: [500] });
    try {
      const { transactionId } = await pay();
      const body = refundBody({ originalTransactionId: transactionId }, { notifyUrl: flaky.url });
      await post(sandbox, REFUND, body);
      await sandbox.waitForDeliveries();
      const delivery = sandbox.deliveries().find((d) => d.payload.transactionRequestId === body.transactionRequestId);
      expect(delivery?.state).toBe('delivered');
      expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 200]);
      expect(new Set(flaky.received.map((r) => r.headers['x-client-request-id'])).size).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it('without notifyUrl nothing is sent', async () => {
    const { transactionId } = await pay();
    const before = sandbox.deliveries().length;
    await post(sandbox, REFUND, refundBody({ originalTransactionId: transactionId }));
    expect(sandbox.deliveries()).toHaveLength(before);
  });
});
