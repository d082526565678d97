import { describe, expect, it } from 'vitest';
import {
  createPaymentClient,
  PaymentApiError,
  PaymentNotFoundError,
  PaymentResponseError,
  PaymentTimeoutError,
  PaymentValidationError,
  type RefundInput,
  type TransactionLookup,
} from '../src';
import { API_KEY, ATTEMPT_TIMEOUT_MS, clientOptions, refundData, refundInput } from './support/fixtures';
import { scriptedClients } from './support/scripted-client';
import { ok, type RecordedRequest } from './support/service-server';

const { setUp, adopt } = scriptedClients();

/** A clock that moves one second on every reading, so each attempt's X-Timestamp differs. */
function steppingClock() {
  let now = 1_800_000_000_000;
  return { now: () => (now += 1_000) };
}

const proxyPage = { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>bad gateway</html>' } as const;

function expectFreshAuthPerAttempt(requests: RecordedRequest[]) {
  const ids = requests.map((r) => r.headers['x-client-request-id']);
  const stamps = requests.map((r) => r.headers['x-timestamp']);
  expect(new Set(ids).size).toBe(requests.length);
  expect(new Set(stamps).size).toBe(requests.length);
  for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
}

const transactionData = {
  transactionId: 'txn_paid_0001',
  transactionRequestId: 'pay-req-0001',
  referenceOrderId: 'order-1001',
  transactionStatus: 'S',
  transactionType: 'SALE',
  amount: { orderAmount: 2500, taxAmount: 200, surchargeAmount: 0, priceCurrency: 'USD' },
  relatedTransactionStatus: 'PART_REFUNDED',
  createTime: '2030-01-01T09:00:00Z',
  completeTime: 1_893_488_401_000,
  description: 'Two mugs',
};

describe('refund', () => {
  it('posts the validated body to /v1/checkout/refund with the four auth headers and maps the answer', async () => {
    const { server, client } = await setUp(() => ok(refundData({ transactionResultCode: 'OK', transactionResultMsg: 'refunded' }), 'trace-r'));
    const result = await client.refund(refundInput());

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/checkout/refund');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.json).toEqual({
      appId: 'app_123',
      merchantId: 'merchant_456',
      transactionRequestId: result.transactionRequestId,
      originalTransactionId: 'txn_paid_0001',
      amount: { priceCurrency: 'USD', orderAmount: 500 },
      description: 'One mug returned',
      notifyUrl: 'https://shop.example.com/payments/webhook',
    });
    expect(result.transactionRequestId).toMatch(/^[0-9a-f]{32}$/);
    expect(result).toEqual({
      status: 'succeeded',
      transactionStatus: 'S',
      transactionId: 'txn_refund_0001',
      originalTransactionId: 'txn_paid_0001',
      transactionRequestId: result.transactionRequestId,
      amount: { priceCurrency: 'USD', orderAmount: 500, totalAmount: 500 },
      createdAt: new Date('2030-01-01T02:00:00Z'),
      completedAt: new Date('2030-01-01T02:00:01Z'),
      resultCode: 'OK',
      resultMessage: 'refunded',
      traceId: 'trace-r',
      raw: { code: '0', msg: 'success', traceId: 'trace-r', data: expect.any(Object) },
      outcomeUnknown: false,
    });
  });

  it('names the payment by originalTransactionRequestId and keeps a caller-given 64-character transactionRequestId', async () => {
    const { server, client } = await setUp(() => ok(refundData()));
    const own = `refund_${'x'.repeat(57)}`;
    const { originalTransactionId: _id, amount: _amount, ...rest } = refundInput();
    const result = await client.refund({ ...rest, originalTransactionRequestId: 'pay-req-0001', transactionRequestId: own });
    expect(own).toHaveLength(64);
    expect(result.transactionRequestId).toBe(own);
    expect(server.requests[0]?.json).toMatchObject({ transactionRequestId: own, originalTransactionRequestId: 'pay-req-0001' });
    // No amount: the whole remaining balance, so none is sent.
    expect(server.requests[0]?.json).not.toHaveProperty('amount');
    expect(server.requests[0]?.json).not.toHaveProperty('originalTransactionId');
  });

  it('retries a time-out and a 5xx with the same transactionRequestId and body, fresh auth headers each attempt', async () => {
    const { server, client } = await setUp(
      (_req, index) => (index === 0 ? { hang: true } : index === 1 ? proxyPage : ok(refundData())),
      { timeoutMs: ATTEMPT_TIMEOUT_MS, clock: steppingClock() },
    );
    const result = await client.refund(refundInput());
    expect(result).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(server.requests.every((r) => r.json.transactionRequestId === result.transactionRequestId)).toBe(true);
    expectFreshAuthPerAttempt(server.requests);
  });

  it('resolves pending with outcomeUnknown when every attempt times out, never failed', async () => {
    // Not less: on a loaded machine a second attempt cut at 100 ms could be aborted before its body reached the server.
    const { server, client } = await setUp(() => ({ hang: true }), { timeoutMs: ATTEMPT_TIMEOUT_MS, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const result = await client.refund(refundInput());
    expect(result).toEqual({ status: 'pending', transactionRequestId: expect.any(String), outcomeUnknown: true });
    expect(server.requests).toHaveLength(2);
    expect(new Set(server.requests.map((r) => r.json.transactionRequestId))).toEqual(new Set([result.transactionRequestId]));
  });

  it('maps F to failed with the reason, C to closed, I and P to pending', async () => {
    const statuses = ['F', 'C', 'I', 'P'];
    const { client } = await setUp((_req, index) =>
      ok(refundData({ transactionStatus: statuses[index], transactionResultCode: 'REFUND_DECLINED', transactionResultMsg: 'declined by issuer' })),
    );
    const results = [];
    for (let i = 0; i < statuses.length; i++) results.push(await client.refund(refundInput()));
    expect(results.map((r) => r.status)).toEqual(['failed', 'closed', 'pending', 'pending']);
    expect(results[0]).toMatchObject({ resultCode: 'REFUND_DECLINED', resultMessage: 'declined by issuer', outcomeUnknown: false });
  });

  it('throws the service refusal (e.g. more than what remains) at once, without retrying', async () => {
    const { server, client } = await setUp(() => ({ status: 409, body: { code: 'T06', msg: 'refund exceeds the refundable balance', traceId: 't-over' } }));
    const error = (await client.refund(refundInput()).catch((e: unknown) => e)) as PaymentApiError;
    expect(error).toBeInstanceOf(PaymentApiError);
    expect(error).not.toBeInstanceOf(PaymentNotFoundError);
    expect(error).toMatchObject({ code: 'SERVICE_REFUSED', serviceCode: 'T06', msg: 'refund exceeds the refundable balance', traceId: 't-over', httpStatus: 409 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a success answer without the refund\'s own ids as a response error', async () => {
    const { client } = await setUp(() => ok({ transactionStatus: 'S' }));
    const error = (await client.refund(refundInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error.message).toMatch(/^POST \/v1\/checkout\/refund succeeded but its data is unusable: .*data\.transactionId/);
  });

  it.each<[string, Partial<RefundInput> & Record<string, unknown>, string[]]>([
    ['a decimal amount', { amount: { priceCurrency: 'USD', orderAmount: 12.5 } }, ['amount.orderAmount:integer_minor_units']],
    ['both ids', { originalTransactionRequestId: 'pay-req-0001' }, ['originalTransactionRequestId:only_one']],
    ['neither id', { originalTransactionId: undefined }, ['originalTransactionId:one_required']],
    ['totalAmount other than the sum of the parts', { amount: { priceCurrency: 'USD', orderAmount: 500, totalAmount: 600 } }, ['amount.totalAmount:total_amount_sum']],
    ['a refund of nothing', { amount: { priceCurrency: 'USD' } }, ['amount.orderAmount:positive_total']],
    ['a transactionRequestId over 64 characters', { transactionRequestId: 'r'.repeat(65) }, ['transactionRequestId:max_length']],
    ['a notifyUrl that is not a URL', { notifyUrl: 'ftp://shop.example.com/hook' }, ['notifyUrl:url']],
  ])('refuses %s before sending anything', async (_what, overrides, rules) => {
    const { server, client } = await setUp(() => ok(refundData()));
    const error = (await client.refund(refundInput(overrides)).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.message).toMatch(/^Invalid refund request: /);
    expect(error.issues.map((i) => `${i.path}:${i.rule}`)).toEqual(rules);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a notifyUrl that is not public HTTPS outside local development', async () => {
    // Never reached: the host does not exist, so a request would fail as a network error instead.
    const client = adopt(createPaymentClient(clientOptions('https://api.payments.invalid', { localDevelopment: false })));
    const error = (await client.refund(refundInput({ notifyUrl: 'http://shop.example.com/hook' })).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.issues).toEqual([{ path: 'notifyUrl', rule: 'public_https', message: expect.stringMatching(/public HTTPS/) }]);
  });
});

describe('getTransaction', () => {
  it('sends a GET with appId, merchantId and the id in the query string, no body, no Content-Type, the other three auth headers', async () => {
    const { server, client } = await setUp(() => ok(transactionData, 'trace-q'));
    const details = await client.getTransaction({ transactionId: 'txn_paid_0001' });

    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/v1/transaction/query?appId=app_123&merchantId=merchant_456&transactionId=txn_paid_0001');
    expect(request?.body).toBe('');
    expect(request?.headers).not.toHaveProperty('content-type');
    expect(request?.headers).not.toHaveProperty('content-length');
    expect(request?.headers).not.toHaveProperty('transfer-encoding');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['x-client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
    expect(details).toEqual({
      status: 'succeeded',
      transactionStatus: 'S',
      transactionType: 'SALE',
      transactionId: 'txn_paid_0001',
      transactionRequestId: 'pay-req-0001',
      referenceOrderId: 'order-1001',
      amount: transactionData.amount,
      relatedTransactionStatus: 'PART_REFUNDED',
      createdAt: new Date('2030-01-01T09:00:00Z'),
      completedAt: new Date(1_893_488_401_000),
      traceId: 'trace-q',
      raw: { code: '0', msg: 'success', traceId: 'trace-q', data: transactionData },
    });
  });

  it('looks up by a 64-character transactionRequestId, and maps C to closed', async () => {
    const { server, client } = await setUp(() => ok({ ...transactionData, transactionStatus: 'C', relatedTransactionStatus: undefined }));
    const id = `pay_${'r'.repeat(60)}`;
    const details = await client.getTransaction({ transactionRequestId: id });
    const url = new URL(server.requests[0]?.path ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ appId: 'app_123', merchantId: 'merchant_456', transactionRequestId: id });
    expect(details.status).toBe('closed');
    expect(details).not.toHaveProperty('relatedTransactionStatus');
  });

  it('retries a time-out, a reset and a 5xx with a fresh X-Client-Request-Id and X-Timestamp each attempt', async () => {
    const replies = [{ hang: true }, { reset: true }, proxyPage] as const;
    const { server, client } = await setUp((_req, index) => replies[index] ?? ok(transactionData), {
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 1 },
      clock: steppingClock(),
    });
    await expect(client.getTransaction({ transactionId: 'txn_paid_0001' })).resolves.toMatchObject({ transactionId: 'txn_paid_0001' });
    expect(server.requests).toHaveLength(4);
    expect(new Set(server.requests.map((r) => `${r.method} ${r.path}`))).toEqual(
      new Set(['GET /v1/transaction/query?appId=app_123&merchantId=merchant_456&transactionId=txn_paid_0001']),
    );
    expectFreshAuthPerAttempt(server.requests);
  });

  it('throws PaymentTimeoutError when every attempt times out: a read has no unknown outcome to report as pending', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_fields: unknown, message?: string) => void warnings.push(String(message)) };
    const { server, client } = await setUp(() => ({ hang: true }), {
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      logger,
    });
    const error = (await client.getTransaction({ transactionId: 'txn_paid_0001' }).catch((e: unknown) => e)) as PaymentTimeoutError;
    expect(error).toBeInstanceOf(PaymentTimeoutError);
    expect(error.message).toMatch(new RegExp(`^No answer to GET /v1/transaction/query\\?.* within ${ATTEMPT_TIMEOUT_MS} ms$`));
    expect(server.requests).toHaveLength(2);
    // Giving up is the thrown error's to report, by whoever catches it: a route logs it once, at its answer.
    expect(warnings).toEqual(['retrying payment service call']);
  });

  it('throws PaymentNotFoundError for an unknown transaction, without retrying', async () => {
    const { server, client } = await setUp(() => ({ status: 404, body: { code: 'T01', msg: 'transaction not found', traceId: 't-nf' } }));
    const error = (await client.getTransaction({ transactionId: 'txn_nobody' }).catch((e: unknown) => e)) as PaymentNotFoundError;
    expect(error).toBeInstanceOf(PaymentNotFoundError);
    expect(error).toBeInstanceOf(PaymentApiError);
    expect(error).toMatchObject({ name: 'PaymentNotFoundError', code: 'SERVICE_NOT_FOUND', serviceCode: 'T01', msg: 'transaction not found', httpStatus: 404, traceId: 't-nf' });
    expect(error.message).toMatch(/^GET \/v1\/transaction\/query\?/);
    expect(server.requests).toHaveLength(1);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['neither id', {}, ['transactionId:one_required']],
    ['both ids', { transactionId: 'txn_1', transactionRequestId: 'req_1' }, ['transactionRequestId:only_one']],
    ['an empty transactionId', { transactionId: '' }, ['transactionId:min_length']],
    ['a field of another call', { transactionId: 'txn_1', referenceOrderId: 'order-1001' }, ['referenceOrderId:unknown_field']],
  ])('refuses %s before sending anything', async (_what, lookup, rules) => {
    const { server, client } = await setUp(() => ok(transactionData));
    const error = (await client.getTransaction(lookup as TransactionLookup).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.message).toMatch(/^Invalid transaction query: /);
    expect(error.issues.map((i) => `${i.path}:${i.rule}`)).toEqual(rules);
    expect(server.requests).toHaveLength(0);
  });
});

describe('expireCheckoutSession', () => {
  const expiredData = {
    sessionId: 'cs_0001',
    sessionStatus: 'EXPIRED',
    transactionId: 'txn_session_0001',
    transactionRequestId: 'session-req-0001',
    expiredAt: '2030-01-01T00:10:00Z',
  };

  it('posts sessionId and reason with appId and merchantId, and maps the answer', async () => {
    const { server, client } = await setUp(() => ok(expiredData, 'trace-x'));
    const expired = await client.expireCheckoutSession({ sessionId: 'cs_0001', reason: 'shopper abandoned the order' });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/checkout/expire-session');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json).toEqual({ appId: 'app_123', merchantId: 'merchant_456', sessionId: 'cs_0001', reason: 'shopper abandoned the order' });
    expect(expired).toEqual({
      sessionId: 'cs_0001',
      sessionStatus: 'EXPIRED',
      expiredAt: new Date('2030-01-01T00:10:00Z'),
      transactionId: 'txn_session_0001',
      transactionRequestId: 'session-req-0001',
      traceId: 'trace-x',
      raw: { code: '0', msg: 'success', traceId: 'trace-x', data: expiredData },
    });
  });

  it('takes the time of the answer as expiredAt when the service leaves it out', async () => {
    const { client } = await setUp(() => ok({ sessionId: 'cs_0001', sessionStatus: 'EXPIRED' }), { clock: { now: () => 1_893_456_000_000 } });
    const expired = await client.expireCheckoutSession({ sessionId: 'cs_0001' });
    expect(expired.expiredAt).toEqual(new Date(1_893_456_000_000));
    expect(expired).not.toHaveProperty('transactionId');
  });

  it('retries a time-out (expiring twice has the effect of once) and then answers', async () => {
    const { server, client } = await setUp((_req, index) => (index === 0 ? { hang: true } : ok(expiredData)), { timeoutMs: ATTEMPT_TIMEOUT_MS });
    await expect(client.expireCheckoutSession({ sessionId: 'cs_0001' })).resolves.toMatchObject({ sessionStatus: 'EXPIRED' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body).toBe(server.requests[1]?.body);
  });

  it('throws PaymentTimeoutError when no attempt is answered: nothing to report, call again', async () => {
    const { client } = await setUp(() => ({ hang: true }), { timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await expect(client.expireCheckoutSession({ sessionId: 'cs_0001' })).rejects.toBeInstanceOf(PaymentTimeoutError);
  });

  it('throws PaymentNotFoundError for an unknown session, and PaymentApiError for a paid one', async () => {
    const { server, client } = await setUp((_req, index) =>
      index === 0
        ? { status: 404, body: { code: 'H01', msg: 'no such session', traceId: 't' } }
        : { status: 409, body: { code: 'H02', msg: 'already paid', traceId: 't' } },
    );
    const unknown = await client.expireCheckoutSession({ sessionId: 'cs_nobody' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PaymentNotFoundError);
    expect(unknown).toMatchObject({ code: 'SERVICE_NOT_FOUND', serviceCode: 'H01' });
    const paid = await client.expireCheckoutSession({ sessionId: 'cs_paid' }).catch((e: unknown) => e);
    expect(paid).toBeInstanceOf(PaymentApiError);
    expect(paid).not.toBeInstanceOf(PaymentNotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses an empty sessionId before sending anything', async () => {
    const { server, client } = await setUp(() => ok(expiredData));
    const error = (await client.expireCheckoutSession({ sessionId: '' }).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.issues.map((i) => `${i.path}:${i.rule}`)).toEqual(['sessionId:min_length']);
    expect(error.message).toMatch(/^Invalid expire checkout session request: sessionId/);
    expect(server.requests).toHaveLength(0);
  });
});
