import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandbox, type Sandbox } from '../src/index';
import { post, sessionBody, startReceiver } from './helpers';

const EXPIRE = '/v1/checkout/expire-session';
const START = Date.UTC(2030, 4, 1, 10);

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5], clock: { now: () => START } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function createSession(overrides: Record<string, unknown> = {}) {
  const body = sessionBody(sandbox, { notifyUrl: receiver.url, ...overrides });
  const answer = await post(sandbox, '/v1/checkout/create-session', body);
  expect(answer.json.code).toBe('0');
  return { body, checkoutUrl: String(answer.json.data.checkoutUrl), sessionId: String(answer.json.data.sessionId) };
}

function expire(sessionId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return post(sandbox, EXPIRE, { appId: sandbox.appId, merchantId: sandbox.merchantId, sessionId, ...extra }, { 'x-timestamp': String(sandbox.clock.now()), ...headers });
}

async function hosted(url: string, method: 'GET' | 'POST' = 'GET', fields: Record<string, string> = {}) {
  const res = await request(url, {
    method,
    ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() } : {}),
  });
  return { status: res.statusCode, html: await res.body.text() };
}

/** The `C` webhooks sent for a session, once every delivery has settled. */
async function closedHooks(sessionId: string) {
  await sandbox.waitForDeliveries();
  return sandbox.deliveries().filter((d) => d.payload.sessionId === sessionId && d.payload.transactionStatus === 'C');
}

const charged = (referenceOrderId: unknown) => sandbox.charges().filter((c) => c.referenceOrderId === referenceOrderId);

describe('expire-session', () => {
  it('an open session expires at once: answer, 410 page, no payment, exactly one C webhook with the reason', async () => {
    const { body, checkoutUrl, sessionId } = await createSession();
    const answer = await expire(sessionId, { reason: 'shopper paid by wallet instead' });
    expect([answer.status, answer.json.code]).toEqual([200, '0']);
    expect(answer.json.data).toEqual({
      sessionId,
      sessionStatus: 'EXPIRED',
      transactionId: expect.stringMatching(/^txn_/),
      transactionRequestId: body.transactionRequestId,
      expiredAt: new Date(START).toISOString(),
    });

    const page = await hosted(checkoutUrl);
    expect(page.status).toBe(410);
    expect(page.html).toContain('expired');
    expect((await hosted(`${checkoutUrl}/pay`, 'POST')).status).toBe(410);
    expect((await hosted(`${checkoutUrl}/cancel`, 'POST')).status).toBe(410);
    expect(charged(body.referenceOrderId)).toHaveLength(0);

    const hooks = await closedHooks(sessionId);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]?.payload).toMatchObject({
      transactionId: answer.json.data.transactionId,
      transactionRequestId: body.transactionRequestId,
      referenceOrderId: body.referenceOrderId,
      transactionType: 'SALE',
      transactionStatus: 'C',
      reason: { code: 'SESSION_EXPIRED', message: 'shopper paid by wallet instead' },
    });

    // Expiring again, and the session's own 30 minutes passing, change nothing and send nothing more.
    sandbox.clock.advance(31 * 60_000);
    try {
      const again = await expire(sessionId);
      expect(again.json.data).toEqual(answer.json.data);
      expect(await closedHooks(sessionId)).toHaveLength(1);
    } finally {
      sandbox.clock.reset();
    }
  });

  it('without a reason the webhook says the merchant expired it', async () => {
    const { sessionId } = await createSession();
    await expire(sessionId);
    expect((await closedHooks(sessionId))[0]?.payload.reason).toEqual({ code: 'SESSION_EXPIRED', message: 'checkout session expired by the merchant' });
  });

  it('H02: a paid session cannot be expired, and stays paid', async () => {
    const { body, checkoutUrl, sessionId } = await createSession();
    await hosted(`${checkoutUrl}/pay`, 'POST');
    const answer = await expire(sessionId);
    expect([answer.status, answer.json.code]).toEqual([409, 'H02']);
    expect(answer.json.msg).toContain('refund');
    expect((await hosted(checkoutUrl)).html).toContain('already paid');
    expect(charged(body.referenceOrderId)).toEqual([expect.objectContaining({ transactionStatus: 'S' })]);
    expect(await closedHooks(sessionId)).toHaveLength(0);
  });

  it('a session that expired by itself answers its expiry, without a second webhook', async () => {
    const { sessionId } = await createSession();
    sandbox.clock.advance(30 * 60_000 + 5000);
    try {
      const answer = await expire(sessionId);
      expect(answer.json.data).toMatchObject({ sessionStatus: 'EXPIRED', expiredAt: new Date(START + 30 * 60_000).toISOString() });
      const hooks = await closedHooks(sessionId);
      expect(hooks).toHaveLength(1);
      expect(hooks[0]?.payload.reason).toEqual({ code: 'SESSION_EXPIRED', message: 'checkout session expired unpaid' });
    } finally {
      sandbox.clock.reset();
    }
  });

  it('a cancelled session answers the time it was cancelled, without a second webhook', async () => {
    const { checkoutUrl, sessionId } = await createSession();
    sandbox.clock.advance(60_000);
    try {
      await hosted(`${checkoutUrl}/cancel`, 'POST');
      sandbox.clock.advance(60_000);
      const answer = await expire(sessionId);
      expect(answer.json.data).toMatchObject({ sessionStatus: 'EXPIRED', expiredAt: new Date(START + 60_000).toISOString() });
      const hooks = await closedHooks(sessionId);
      expect(hooks).toHaveLength(1);
      expect(hooks[0]?.payload.reason).toMatchObject({ code: 'CANCELLED' });
    } finally {
      sandbox.clock.reset();
    }
  });

  it('a session whose payment failed answers as expired with its transaction, and sends nothing', async () => {
    const { body, checkoutUrl, sessionId } = await createSession();
    await hosted(`${checkoutUrl}/pay`, 'POST', { testCard: 'additional-3ds' });
    const answer = await expire(sessionId);
    expect(answer.json.data).toMatchObject({ sessionStatus: 'EXPIRED', transactionId: charged(body.referenceOrderId)[0]?.transactionId });
    expect(await closedHooks(sessionId)).toHaveLength(0);
  });

  it('H01: an unknown session, or one of the other environment', async () => {
    const unknown = await expire('cs_unknown');
    expect([unknown.status, unknown.json.code]).toEqual([404, 'H01']);
    const production = await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox), { authorization: `Bearer ${sandbox.productionApiKey}` });
    const sessionId = String(production.json.data.sessionId);
    expect((await expire(sessionId)).json.code).toBe('H01');
    const inProduction = await expire(sessionId, {}, { authorization: `Bearer ${sandbox.productionApiKey}` });
    expect(inProduction.json.data.sessionStatus).toBe('EXPIRED');
  });

  it.each([
    ['no sessionId', { sessionId: undefined }, 400, 'V01'],
    ['a sessionId of 65 characters', { sessionId: 's'.repeat(65) }, 400, 'V03'],
    ['an empty reason', { reason: '' }, 400, 'V03'],
    ['another merchantId', { merchantId: 'mch_other' }, 403, 'B02'],
  ])('refuses %s', async (_label, overrides, status, code) => {
    const { sessionId } = await createSession();
    const answer = await expire(sessionId, overrides);
    expect([answer.status, answer.json.code]).toEqual([status, code]);
    expect((await hosted(`${sandbox.url}/hosted/checkout/${sessionId}`)).status).toBe(200);
  });
});
