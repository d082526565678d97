import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandbox, type Sandbox } from '../src/index';
import { get, goodHeaders, post, saleBody, sessionBody, uniqueId } from './helpers';

const QUERY = '/v1/transaction/query';
const SESSION = '/v1/checkout/create-session';
const START = Date.UTC(2030, 3, 1, 8);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: { now: () => START }, rateLimit: false });
});
afterAll(() => sandbox.close());

const iso = (ms: number) => new Date(ms).toISOString();

function query(params: Record<string, string>, headers: Record<string, string | undefined> = {}) {
  return get(sandbox, QUERY, { appId: sandbox.appId, merchantId: sandbox.merchantId, ...params }, headers);
}

async function createSession(overrides: Record<string, unknown> = {}) {
  const body = sessionBody(sandbox, overrides);
  const answer = await post(sandbox, SESSION, body);
  return { body, checkoutUrl: String(answer.json.data.checkoutUrl), sessionId: String(answer.json.data.sessionId) };
}

async function submit(url: string, fields: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await res.body.dump();
}

describe('transaction query', () => {
  it('answers a direct payment by transactionId and by transactionRequestId alike', async () => {
    const body = saleBody(sandbox, { amount: { orderAmount: 2500, taxAmount: 100, priceCurrency: 'USD' } });
    const paid = await post(sandbox, '/v1/checkout/sale', body);
    const byId = await query({ transactionId: String(paid.json.data.transactionId) });
    expect([byId.status, byId.json.code]).toEqual([200, '0']);
    expect(byId.json.data).toEqual({
      transactionId: paid.json.data.transactionId,
      transactionRequestId: body.transactionRequestId,
      referenceOrderId: body.referenceOrderId,
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 2500, taxAmount: 100, surchargeAmount: 0, priceCurrency: 'USD' },
      createTime: iso(START),
      completeTime: iso(START),
      description: 'Two mugs',
    });
    const byRequest = await query({ transactionRequestId: String(body.transactionRequestId) });
    expect(byRequest.json.data).toEqual(byId.json.data);
  });

  it('a declined payment is F with its result code and message', async () => {
    const body = saleBody(sandbox, { amount: { orderAmount: 8887, priceCurrency: 'USD' } });
    await post(sandbox, '/v1/checkout/sale', body);
    expect((await query({ transactionRequestId: String(body.transactionRequestId) })).json.data).toMatchObject({
      transactionStatus: 'F',
      transactionResultCode: 'INSUFFICIENT_BALANCE',
      transactionResultMsg: 'insufficient balance',
    });
  });

  it('a terminal sale is a SALE without referenceOrderId', async () => {
    const transactionRequestId = uniqueId('term');
    await post(sandbox, '/v1/semi-integration/transaction/sale', {
      appId: sandbox.appId,
      merchantId: sandbox.merchantId,
      transactionRequestId,
      amount: 1200,
      priceCurrency: 'USD',
    });
    const answer = await query({ transactionRequestId });
    expect(answer.json.data).toMatchObject({ transactionType: 'SALE', transactionStatus: 'S', amount: { orderAmount: 1200 } });
    expect(answer.json.data).not.toHaveProperty('referenceOrderId');
  });

  it('a refund is a REFUND with its original’s referenceOrderId and ids, and its attach', async () => {
    const sale = saleBody(sandbox);
    const paid = await post(sandbox, '/v1/checkout/sale', sale);
    const refundRequestId = uniqueId('rf');
    const refunded = await post(sandbox, '/v1/checkout/refund', {
      appId: sandbox.appId,
      merchantId: sandbox.merchantId,
      transactionRequestId: refundRequestId,
      originalTransactionId: paid.json.data.transactionId,
      amount: { priceCurrency: 'USD', orderAmount: 300 },
      attach: '{"ticket":42}',
    });
    const byId = await query({ transactionId: String(refunded.json.data.transactionId) });
    expect(byId.json.data).toEqual({
      ...refunded.json.data,
      referenceOrderId: sale.referenceOrderId,
      attach: '{"ticket":42}',
    });
    expect(byId.json.data).toMatchObject({ transactionType: 'REFUND', originalTransactionId: paid.json.data.transactionId });
    expect((await query({ transactionRequestId: refundRequestId })).json.data).toEqual(byId.json.data);
  });

  describe('a hosted session answers as a SALE in its current state', () => {
    it('open: I, with the session’s transactionId and no completeTime', async () => {
      const { body } = await createSession();
      const answer = await query({ transactionRequestId: String(body.transactionRequestId) });
      expect(answer.json.data).toEqual({
        transactionId: expect.stringMatching(/^txn_/),
        transactionRequestId: body.transactionRequestId,
        referenceOrderId: body.referenceOrderId,
        transactionType: 'SALE',
        transactionStatus: 'I',
        amount: { orderAmount: 2500, taxAmount: 200, surchargeAmount: 0, priceCurrency: 'USD' },
        createTime: iso(START),
        description: 'Two mugs',
      });
      expect((await query({ transactionId: String(answer.json.data.transactionId) })).json.data).toEqual(answer.json.data);
    });

    it('paid: S, under the same transactionId as the charge', async () => {
      const { body, checkoutUrl } = await createSession();
      const open = await query({ transactionRequestId: String(body.transactionRequestId) });
      await submit(`${checkoutUrl}/pay`);
      const charge = sandbox.charges().find((c) => c.transactionRequestId === body.transactionRequestId);
      expect(charge?.transactionId).toBe(open.json.data.transactionId);
      const paid = await query({ transactionId: String(open.json.data.transactionId) });
      expect(paid.json.data).toMatchObject({ transactionStatus: 'S', transactionType: 'SALE', completeTime: iso(START), description: 'Two mugs' });
    });

    it('failed: F', async () => {
      const { body, checkoutUrl } = await createSession();
      await submit(`${checkoutUrl}/pay`, { testCard: 'additional-3ds' });
      expect((await query({ transactionRequestId: String(body.transactionRequestId) })).json.data).toMatchObject({
        transactionStatus: 'F',
        transactionResultCode: 'ADDITIONAL_3DS_REQUIRED',
      });
    });

    it('cancelled: C, with the reason and the time it closed', async () => {
      const { body, checkoutUrl } = await createSession();
      await submit(`${checkoutUrl}/cancel`);
      expect((await query({ transactionRequestId: String(body.transactionRequestId) })).json.data).toMatchObject({
        transactionStatus: 'C',
        completeTime: iso(START),
        transactionResultCode: 'CANCELLED',
      });
    });

    it('expired: C once its 30 minutes are over, completed at its expiry', async () => {
      const { body } = await createSession();
      sandbox.clock.advance(30 * 60_000);
      try {
        const answer = await query({ transactionRequestId: String(body.transactionRequestId) }, { 'x-timestamp': String(sandbox.clock.now()) });
        expect(answer.json.data).toMatchObject({
          transactionStatus: 'C',
          createTime: iso(START),
          completeTime: iso(START + 30 * 60_000),
          transactionResultCode: 'SESSION_EXPIRED',
        });
      } finally {
        sandbox.clock.reset();
      }
    });
  });

  it('T01: an unknown transaction, or one of the other environment', async () => {
    for (const params of [{ transactionId: 'txn_unknown' }, { transactionRequestId: 'never_sent' }] as Array<Record<string, string>>) {
      const answer = await query(params);
      expect([answer.status, answer.json.code]).toEqual([404, 'T01']);
    }
    const production = saleBody(sandbox);
    const paid = await post(sandbox, '/v1/checkout/sale', production, { authorization: `Bearer ${sandbox.productionApiKey}` });
    expect((await query({ transactionId: String(paid.json.data.transactionId) })).json.code).toBe('T01');
    const inProduction = await query({ transactionId: String(paid.json.data.transactionId) }, { authorization: `Bearer ${sandbox.productionApiKey}` });
    expect(inProduction.json.data.transactionStatus).toBe('S');
  });

  it('T01: a hosted session of the other environment, by either of its ids', async () => {
    const production = { authorization: `Bearer ${sandbox.productionApiKey}` };
    const body = sessionBody(sandbox);
    await post(sandbox, SESSION, body, production);
    const byRequest = { transactionRequestId: String(body.transactionRequestId) };
    const inProduction = await query(byRequest, production);
    expect(inProduction.json.data).toMatchObject({ transactionStatus: 'I', transactionRequestId: body.transactionRequestId });
    const byId = { transactionId: String(inProduction.json.data.transactionId) };
    expect((await query(byId, production)).json.data).toEqual(inProduction.json.data);
    for (const params of [byRequest, byId]) expect((await query(params)).json.code).toBe('T01');
  });

  it('T01: a session id, or a transaction id of the right shape that names no transaction', async () => {
    const { sessionId } = await createSession();
    for (const transactionId of [sessionId, `txn_${'0'.repeat(32)}`, `txn_${sessionId.slice('cs_'.length)}`]) {
      expect((await query({ transactionId })).json.code).toBe('T01');
    }
  });

  it('with both ids the transactionId wins; with neither, V01', async () => {
    const first = saleBody(sandbox);
    const second = saleBody(sandbox);
    const paid = await post(sandbox, '/v1/checkout/sale', first);
    await post(sandbox, '/v1/checkout/sale', second);
    const both = await query({ transactionId: String(paid.json.data.transactionId), transactionRequestId: String(second.transactionRequestId) });
    expect(both.json.data.transactionRequestId).toBe(first.transactionRequestId);
    const neither = await query({});
    expect([neither.status, neither.json.code]).toEqual([400, 'V01']);
    expect(neither.json.msg).toContain('transactionId');
  });

  it('a repeated query parameter counts once, its first value', async () => {
    const body = saleBody(sandbox);
    const paid = await post(sandbox, '/v1/checkout/sale', body);
    const path = `${QUERY}?appId=${sandbox.appId}&merchantId=${sandbox.merchantId}&transactionId=${String(paid.json.data.transactionId)}&transactionId=txn_other`;
    const { 'content-type': _json, ...headers } = goodHeaders(sandbox);
    const res = await request(`${sandbox.url}${path}`, { headers });
    expect(((await res.body.json()) as { data: { transactionRequestId: string } }).data.transactionRequestId).toBe(body.transactionRequestId);
  });

  it.each([
    ['appId missing', { appId: undefined }, 400, 'V01'],
    ['another appId', { appId: 'app_other' }, 403, 'B01'],
    ['another merchantId', { merchantId: 'mch_other' }, 403, 'B02'],
    ['a transactionId of 65 characters', { transactionId: 't'.repeat(65) }, 400, 'V03'],
  ])('refuses %s', async (_label, overrides, status, code) => {
    const params = Object.fromEntries(
      Object.entries({ appId: sandbox.appId, merchantId: sandbox.merchantId, transactionId: 'txn_x', ...overrides }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const answer = await get(sandbox, QUERY, params);
    expect([answer.status, answer.json.code]).toEqual([status, code]);
  });
});

describe('the gate, per method', () => {
  const known = async () => {
    const body = saleBody(sandbox);
    const paid = await post(sandbox, '/v1/checkout/sale', body);
    return String(paid.json.data.transactionId);
  };

  it('takes the query as a GET with the authentication headers and no Content-Type', async () => {
    const transactionId = await known();
    const answer = await query({ transactionId }, { 'content-type': undefined });
    expect(answer.json.code).toBe('0');
  });

  it('R05: a POST to the query, with Allow: GET', async () => {
    const answer = await post(sandbox, QUERY, { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionId: await known() });
    expect([answer.status, answer.json.code, answer.headers.allow]).toEqual([405, 'R05', 'GET']);
  });

  it.each(['/v1/checkout/refund', '/v1/checkout/expire-session', SESSION])('R05: a GET to %s, with Allow: POST', async (path) => {
    const answer = await get(sandbox, path, { appId: sandbox.appId, merchantId: sandbox.merchantId });
    expect([answer.status, answer.json.code, answer.headers.allow]).toEqual([405, 'R05', 'POST']);
  });

  it.each([
    ['A01 without Authorization', { authorization: undefined }, 401, 'A01'],
    ['A02 with an unknown key', { authorization: 'Bearer sk_test_unknown' }, 401, 'A02'],
    ['A03 with a 10-digit X-Timestamp', { 'x-timestamp': String(Math.floor(START / 1000)) }, 400, 'A03'],
    ['A04 with an X-Timestamp 11 minutes off', { 'x-timestamp': String(START - 11 * 60_000) }, 401, 'A04'],
    ['A05 without X-Client-Request-Id', { 'x-client-request-id': undefined }, 400, 'A05'],
  ])('a GET is authenticated like a POST: %s', async (_label, headers, status, code) => {
    const answer = await query({ transactionId: await known() }, headers);
    expect([answer.status, answer.json.code]).toEqual([status, code]);
  });

  it('a GET may repeat its X-Client-Request-Id (a read is safe to repeat), and does not take it from a later POST', async () => {
    const transactionId = await known();
    const headers = { 'x-client-request-id': uniqueId('read') };
    expect((await query({ transactionId }, headers)).json.code).toBe('0');
    expect((await query({ transactionId }, headers)).json.code).toBe('0');
    expect((await post(sandbox, SESSION, sessionBody(sandbox), headers)).json.code).toBe('0');
    expect((await post(sandbox, SESSION, sessionBody(sandbox), headers)).json.code).toBe('A06');
  });

  it('A07 and S04 apply to the query too', async () => {
    const limited = await startSandbox({ rateLimit: { limit: 1, windowMs: 60_000 }, ipAllowList: ['127.0.0.1'] });
    const outside = await startSandbox({ ipAllowList: ['203.0.113.0/24'] });
    try {
      const params = { appId: limited.appId, merchantId: limited.merchantId, transactionId: 'txn_x' };
      expect((await get(limited, QUERY, params)).json.code).toBe('T01');
      const second = await get(limited, QUERY, params);
      expect([second.status, second.json.code]).toEqual([429, 'S04']);
      const refused = await get(outside, QUERY, { appId: outside.appId, merchantId: outside.merchantId, transactionId: 'txn_x' });
      expect([refused.status, refused.json.code]).toEqual([403, 'A07']);
    } finally {
      await Promise.all([limited.close(), outside.close()]);
    }
  });
});
