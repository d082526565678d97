import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxRefusal, startSandbox, type Delivery, type Sandbox, type WebhookEvent } from '../src/index';
import { get, startReceiver } from './helpers';

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // allowLocalNotifyUrl stays off: a trigger may forward to this machine regardless.
  sandbox = await startSandbox({ webhookRetryDelaysMs: [5, 5] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const signed = (rawBody: string) => createHmac('sha256', sandbox.webhookSecret).update(rawBody).digest('hex');

/** The transaction query's view of a transaction, over the real service route. */
async function query(transactionId: unknown) {
  const answer = await get(sandbox, '/v1/transaction/query', { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionId: String(transactionId) });
  return answer.json.data;
}

/** What the receiver got for a delivery: its raw body and headers. */
function receivedFor(delivery: Delivery) {
  const hits = receiver.received.filter((hook) => hook.headers['x-client-request-id'] === delivery.deliveryId);
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

describe('sandbox.trigger(event, { forwardTo })', () => {
  it.each([
    ['payment.succeeded', 'SALE', 'S'],
    ['payment.failed', 'SALE', 'F'],
    ['payment.closed', 'SALE', 'C'],
    ['refund.succeeded', 'REFUND', 'S'],
    ['refund.failed', 'REFUND', 'F'],
  ] as const)('%s: a real transaction in the ledger, its signed webhook delivered to a local URL', async (event, type, status) => {
    const delivery = await sandbox.trigger(event, { forwardTo: receiver.url });
    expect(delivery).toMatchObject({ event, url: receiver.url, state: 'delivered', attempts: [{ status: 200, answer: 'ok' }] });
    expect(delivery.payload).toMatchObject({ transactionType: type, transactionStatus: status, appId: sandbox.appId });
    const hook = receivedFor(delivery);
    expect(hook.rawBody).toBe(delivery.body);
    expect(hook.headers['x-signature']).toBe(signed(hook.rawBody));
    // The service itself knows the transaction the webhook reports, in the state it reports.
    expect(await query(delivery.payload.transactionId)).toMatchObject({ transactionType: type, transactionStatus: status });
    if (type === 'REFUND') {
      const original = sandbox.charges().find((charge) => charge.transactionId === delivery.payload.originalTransactionId);
      expect(original).toMatchObject({ transactionStatus: 'S', channel: 'direct' });
      expect(sandbox.refunds().at(-1)).toMatchObject({ transactionId: delivery.payload.transactionId, transactionStatus: status });
    } else if (status !== 'C') {
      expect(sandbox.charges().at(-1)).toMatchObject({ transactionId: delivery.payload.transactionId, transactionStatus: status });
    }
  });

  it('takes the amount, currency and referenceOrderId of the shop under development', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url, amount: 1500, currency: 'JPY', referenceOrderId: 'order-4711' });
    expect(delivery.payload).toMatchObject({ referenceOrderId: 'order-4711', amount: { orderAmount: 1500, priceCurrency: 'JPY' } });
    const failed = await sandbox.trigger('payment.failed', { forwardTo: receiver.url, amount: 2500 });
    expect(failed.payload).toMatchObject({ transactionStatus: 'F', reason: { code: 'ADDITIONAL_3DS_REQUIRED' } });
    expect((await sandbox.trigger('payment.failed', { forwardTo: receiver.url })).payload).toMatchObject({ reason: { code: 'CARD_DECLINED' } });
  });

  it('retries a refusing receiver and logs every answer, with the delay before the next attempt', async () => {
    const refusing = await startReceiver({ statuses: [500, 409] });
    try {
      const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: refusing.url });
      expect(delivery.state).toBe('delivered');
      expect(delivery.attempts).toMatchObject([
        { status: 500, answer: 'ok', retryInMs: 5 },
        { status: 409, answer: 'ok', retryInMs: 5 },
        { status: 200, answer: 'ok' },
      ]);
      expect(delivery.attempts[2]).not.toHaveProperty('retryInMs');
    } finally {
      await refusing.close();
    }
  });

  it('a receiver that never takes it: the delivery resolves failed, each attempt with its reason', async () => {
    const gone = await startReceiver();
    await gone.close();
    const delivery = await sandbox.trigger('refund.succeeded', { forwardTo: gone.url });
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it.each([
    [{ event: 'payment.refunded', forwardTo: 'http://127.0.0.1:1/x' }, 'V02', 'event must be one of payment.succeeded'],
    [{ event: 'payment.succeeded', forwardTo: 'http://10.0.0.5/webhook' }, 'D02', 'forwardTo must be an http(s) URL on this machine'],
    [{ event: 'payment.succeeded', forwardTo: 'ftp://localhost/webhook' }, 'D02', 'forwardTo'],
    [{ event: 'payment.succeeded', forwardTo: 'http://user:pw@localhost/webhook' }, 'D02', 'forwardTo'],
    [{ event: 'payment.succeeded' }, 'V01', 'forwardTo is required'],
    [{ event: 'payment.succeeded', forwardTo: 'http://localhost:3000/w', amount: 8888 }, 'D03', 'amount 8888 cannot give payment.succeeded'],
    [{ event: 'refund.succeeded', forwardTo: 'http://localhost:3000/w', amount: 7777 }, 'D03', 'declines the payment'],
    [{ event: 'refund.failed', forwardTo: 'http://localhost:3000/w', amount: 5000 }, 'D03', 'must be at least 8888'],
    [{ event: 'payment.closed', forwardTo: 'http://localhost:3000/w', amount: 0 }, 'V05', 'amount'],
    [{ event: 'payment.closed', forwardTo: 'http://localhost:3000/w', currency: 'XXY' }, 'V07', 'currency'],
  ])('refuses %j with %s before creating anything', async (options, code, message) => {
    const before = { charges: sandbox.charges().length, refunds: sandbox.refunds().length, deliveries: sandbox.deliveries().length };
    const { event, ...rest } = options as { event: WebhookEvent; forwardTo: string };
    const error = (await sandbox.trigger(event, rest).catch((e: unknown) => e)) as SandboxRefusal;
    expect(error).toBeInstanceOf(SandboxRefusal);
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
    expect({ charges: sandbox.charges().length, refunds: sandbox.refunds().length, deliveries: sandbox.deliveries().length }).toEqual(before);
  });
});

describe('sandbox.resend(deliveryId)', () => {
  it('sends the same body under the same signature again, as a new delivery naming the one it resends', async () => {
    const first = await sandbox.trigger('refund.succeeded', { forwardTo: receiver.url });
    const again = await sandbox.resend(first.deliveryId);
    expect(again).toMatchObject({ resentFrom: first.deliveryId, body: first.body, url: first.url, event: 'refund.succeeded', state: 'delivered' });
    expect(again.deliveryId).not.toBe(first.deliveryId);
    const [original, resent] = [receivedFor(first), receivedFor(again)];
    expect(resent.rawBody).toBe(original.rawBody);
    expect(resent.headers['x-signature']).toBe(original.headers['x-signature']);
    expect(Number(resent.headers['x-timestamp'])).toBeGreaterThanOrEqual(Number(original.headers['x-timestamp']));
    // Nothing is charged or refunded again: only the webhook is sent again.
    expect(sandbox.refunds().filter((refund) => refund.transactionId === first.payload.transactionId)).toHaveLength(1);
  });

  it('refuses an id the delivery log does not hold with D01', async () => {
    const error = (await sandbox.resend('0b7c3f5e-0000-4000-8000-000000000000').catch((e: unknown) => e)) as SandboxRefusal;
    expect(error).toBeInstanceOf(SandboxRefusal);
    expect(error.code).toBe('D01');
    expect(error.message).toContain('no webhook delivery "0b7c3f5e-0000-4000-8000-000000000000" in the delivery log');
  });
});

async function control(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { delivery?: Delivery; deliveries?: Delivery[]; error?: { code: string; message: string; issues?: unknown[] } } };
}

async function settledOverHttp(deliveryId: string): Promise<Delivery> {
  for (;;) {
    const { json } = await control('GET', `/sandbox/deliveries/${deliveryId}`);
    if (json.delivery?.state !== 'pending') return json.delivery!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('control routes', () => {
  it('POST /sandbox/trigger answers 201 with the queued delivery; GET /sandbox/deliveries/:id follows it to the receiver', async () => {
    const { status, json } = await control('POST', '/sandbox/trigger', { event: 'payment.closed', forwardTo: receiver.url, referenceOrderId: 'order-http-1' });
    expect(status).toBe(201);
    expect(json.delivery).toMatchObject({ event: 'payment.closed', url: receiver.url, payload: { referenceOrderId: 'order-http-1', transactionStatus: 'C' } });
    const settled = await settledOverHttp(json.delivery!.deliveryId);
    expect(settled).toMatchObject({ state: 'delivered', attempts: [{ status: 200, answer: 'ok' }] });
    expect(receivedFor(settled).rawBody).toBe(settled.body);
  });

  it('POST /sandbox/deliveries/:id/resend answers 201 with the new delivery', async () => {
    const first = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url });
    const { status, json } = await control('POST', `/sandbox/deliveries/${first.deliveryId}/resend`, {});
    expect(status).toBe(201);
    expect(json.delivery).toMatchObject({ resentFrom: first.deliveryId, body: first.body });
    expect((await settledOverHttp(json.delivery!.deliveryId)).state).toBe('delivered');
  });

  it('GET /sandbox/deliveries?limit=n lists the n most recent, oldest first', async () => {
    const a = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url });
    const b = await sandbox.trigger('payment.failed', { forwardTo: receiver.url });
    const { json } = await control('GET', '/sandbox/deliveries?limit=2');
    expect(json.deliveries?.map((delivery) => delivery.deliveryId)).toEqual([a.deliveryId, b.deliveryId]);
    expect((await control('GET', '/sandbox/deliveries')).json.deliveries?.length).toBe(sandbox.deliveries().length);
    expect(await control('GET', '/sandbox/deliveries?limit=0')).toMatchObject({ status: 400, json: { error: { code: 'R02' } } });
  });

  it('an unexpected error answers 500 E01 and reaches onError', async () => {
    const errors: unknown[] = [];
    const broken = await startSandbox({ onError: (error) => errors.push(error) });
    // Service time past what a Date can hold: the sandbox cannot stamp the transaction.
    broken.clock.set(8.64e15 + 1);
    try {
      const res = await fetch(`${broken.url}/sandbox/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'payment.succeeded', forwardTo: receiver.url }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: 'E01', message: 'internal error' } });
      expect(errors).toEqual([expect.any(RangeError)]);
    } finally {
      await broken.close();
    }
  });

  it('refuses with the sandbox codes: unknown delivery 404 D01, bad trigger 400 with every issue, a form post 415', async () => {
    expect(await control('GET', '/sandbox/deliveries/nope')).toMatchObject({ status: 404, json: { error: { code: 'D01' } } });
    expect(await control('POST', '/sandbox/deliveries/nope/resend', {})).toMatchObject({ status: 404, json: { error: { code: 'D01' } } });
    const bad = await control('POST', '/sandbox/trigger', { event: 'nope', forwardTo: 'http://192.168.1.10/hook' });
    expect(bad.status).toBe(400);
    expect(bad.json.error?.issues).toEqual([
      expect.objectContaining({ field: 'event', code: 'V02' }),
      expect.objectContaining({ field: 'forwardTo', code: 'D02' }),
    ]);
    const form = await fetch(`${sandbox.url}/sandbox/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `event=payment.succeeded&forwardTo=${encodeURIComponent(receiver.url)}`,
    });
    expect(form.status).toBe(415);
  });
});
