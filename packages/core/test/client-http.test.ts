import { describe, expect, it } from 'vitest';
import {
  createPaymentClient,
  PaymentApiError,
  PaymentNetworkError,
  PaymentRateLimitError,
  PaymentResponseError,
  PaymentTimeoutError,
  PaymentValidationError,
} from '../src';
import { scriptedClients } from './support/scripted-client';
import { ok, startServiceServer } from './support/service-server';
import { API_KEY, ATTEMPT_TIMEOUT_MS, checkoutInput, clientOptions, directPaymentInput, WALLET_TOKEN } from './support/fixtures';

const { setUp, adopt } = scriptedClients();

const sessionData = { checkoutUrl: 'https://pay.example.com/c/abc', expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(), sessionId: 'sess_1' };

describe('createCheckoutSession', () => {
  it('sends the validated body with the four auth headers and returns the session', async () => {
    const { server, client } = await setUp(() => ok(sessionData, 'trace-1'));
    const session = await client.createCheckoutSession(checkoutInput());

    expect(session.checkoutUrl).toBe(sessionData.checkoutUrl);
    expect(session.expiresAt.toISOString()).toBe(sessionData.expiresAt);
    expect(session.sessionId).toBe('sess_1');
    expect(session.traceId).toBe('trace-1');
    expect(session.raw.data).toEqual(sessionData);

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/checkout/create-session');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.rawHeaders).toContain('Authorization');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
    expect(request?.json).toMatchObject({
      appId: 'app_123',
      merchantId: 'merchant_456',
      referenceOrderId: 'order-1001',
      amount: { orderAmount: 2500, taxAmount: 200, priceCurrency: 'USD' },
    });
    expect(request?.json.transactionRequestId).toBe(session.transactionRequestId);
    expect(session.transactionRequestId).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it('keeps a caller-given transactionRequestId, appId and merchantId', async () => {
    const { server, client } = await setUp(() => ok(sessionData));
    await client.createCheckoutSession(checkoutInput({ transactionRequestId: 'my-req_1', appId: 'other_app', merchantId: 'other_m' }));
    expect(server.requests[0]?.json).toMatchObject({ transactionRequestId: 'my-req_1', appId: 'other_app', merchantId: 'other_m' });
  });

  it('reads expiresAt given as epoch seconds, and counts 30 minutes from receipt when absent', async () => {
    const inTenMinutes = Math.floor(Date.now() / 1000) + 600;
    const { client } = await setUp((_req, index) =>
      index === 0 ? ok({ checkoutUrl: sessionData.checkoutUrl, expiresAt: inTenMinutes }) : ok({ checkoutUrl: sessionData.checkoutUrl }),
    );
    const seconds = await client.createCheckoutSession(checkoutInput());
    expect(seconds.expiresAt.getTime()).toBe(inTenMinutes * 1000);
    const before = Date.now();
    const absent = await client.createCheckoutSession(checkoutInput());
    expect(absent.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 30 * 60 * 1000);
    expect(absent.sessionId).toBeUndefined();
  });

  it('sends nothing and lists every issue when the input is invalid', async () => {
    const { server, client } = await setUp(() => ok(sessionData));
    const error = await client
      .createCheckoutSession(checkoutInput({ referenceOrderId: 'abc', amount: { orderAmount: 12.5, priceCurrency: 'USD' } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentValidationError);
    const rules = (error as PaymentValidationError).issues.map((i) => `${i.path}:${i.rule}`);
    expect(rules).toEqual(expect.arrayContaining(['referenceOrderId:min_length', 'amount.orderAmount:integer_minor_units']));
    expect(server.requests).toHaveLength(0);
  });

  it('throws PaymentApiError with code, msg, traceId and HTTP status, without retrying', async () => {
    const { server, client } = await setUp(() => ({ status: 400, body: { code: 'E101', msg: 'merchant disabled', traceId: 'trace-e' } }));
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentApiError;
    expect(error).toBeInstanceOf(PaymentApiError);
    expect(error).toMatchObject({ code: 'SERVICE_REFUSED', serviceCode: 'E101', msg: 'merchant disabled', traceId: 'trace-e', httpStatus: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('trusts a refusal envelope over the HTTP status', async () => {
    const { server, client } = await setUp(() => ({ status: 200, body: { code: 'E101', msg: 'merchant disabled', traceId: 't' } }));
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toMatchObject({ serviceCode: 'E101', httpStatus: 200 });
    expect(server.requests).toHaveLength(1);
  });

  it('throws PaymentTimeoutError (outcome unknown) when no attempt is answered in time', async () => {
    const { server, client } = await setUp(() => ({ hang: true }), { timeoutMs: ATTEMPT_TIMEOUT_MS, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentTimeoutError;
    expect(error).toBeInstanceOf(PaymentTimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.json.transactionRequestId).toBe(server.requests[1]?.json.transactionRequestId);
  });
});

describe('retries', () => {
  it('retries S04 with backoff, then succeeds with the same transactionRequestId and a fresh X-Client-Request-Id', async () => {
    const { server, client, delays } = await setUp((_req, index) =>
      index === 0 ? { status: 429, body: { code: 'S04', msg: 'too many requests', traceId: 't-s04' } } : ok(sessionData),
    );
    await client.createCheckoutSession(checkoutInput());
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first?.json.transactionRequestId).toBe(second?.json.transactionRequestId);
    expect(first?.headers['x-client-request-id']).not.toBe(second?.headers['x-client-request-id']);
    expect(first?.body).toBe(second?.body);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(0);
    expect(delays[0]).toBeLessThanOrEqual(1);
  });

  it('honours Retry-After on S04', async () => {
    const { client, delays } = await setUp((_req, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '2' }, body: { code: 'S04', traceId: 't' } }
        : ok(sessionData),
    );
    await client.createCheckoutSession(checkoutInput());
    expect(delays).toEqual([2000]);
  });

  it('gives up on S04 after maxAttempts with PaymentRateLimitError', async () => {
    const { server, client } = await setUp(() => ({ status: 429, headers: { 'retry-after': '1' }, body: { code: 'S04', traceId: 't' } }));
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentRateLimitError;
    expect(error).toBeInstanceOf(PaymentRateLimitError);
    expect(error.retryAfterMs).toBe(1000);
    expect(server.requests).toHaveLength(3);
  });

  it("makes at most a call's own maxAttempts, and refuses one that is not a whole number of at least 1, sending nothing", async () => {
    const { server, client } = await setUp(() => ({ status: 429, body: { code: 'S04', traceId: 't' } }));
    const lookup = { transactionRequestId: 'tr-max-attempts' };
    await expect(client.getTransaction(lookup, { maxAttempts: 1 })).rejects.toBeInstanceOf(PaymentRateLimitError);
    expect(server.requests).toHaveLength(1);
    for (const maxAttempts of [0, 1.5, Number.NaN]) {
      await expect(client.getTransaction(lookup, { maxAttempts })).rejects.toMatchObject({
        name: 'PaymentValidationError',
        issues: [{ path: 'maxAttempts', rule: 'min', message: 'must be a whole number of at least 1' }],
      });
    }
    expect(server.requests).toHaveLength(1);
    // More than the client's own policy (3 attempts here) is not more attempts.
    await expect(client.getTransaction(lookup, { maxAttempts: 9 })).rejects.toBeInstanceOf(PaymentRateLimitError);
    expect(server.requests).toHaveLength(4);
  });

  it('retries a connection reset, then succeeds with the same transactionRequestId', async () => {
    const { server, client } = await setUp((_req, index) =>
      index === 0 ? { reset: true } : ok({ transactionStatus: 'S', transactionId: 'tx-1' }),
    );
    const result = await client.directPayment(directPaymentInput());
    expect(result).toMatchObject({ status: 'succeeded', transactionStatus: 'S', transactionId: 'tx-1', outcomeUnknown: false });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.json.transactionRequestId).toBe(result.transactionRequestId);
    expect(server.requests[1]?.json.transactionRequestId).toBe(result.transactionRequestId);
    expect(server.requests[0]?.headers['x-client-request-id']).not.toBe(server.requests[1]?.headers['x-client-request-id']);
  });

  it('retries a 5xx without an envelope, then succeeds', async () => {
    const { server, client } = await setUp((_req, index) =>
      index === 0 ? { status: 503, headers: { 'content-type': 'text/html' }, body: '<html>busy</html>' } : ok(sessionData),
    );
    await client.createCheckoutSession(checkoutInput());
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 2xx it cannot read with the same transactionRequestId, then takes the repeat', async () => {
    const { server, client } = await setUp((_req, index) =>
      index === 0 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"code":"0","da' } : ok({ transactionStatus: 'S' }),
    );
    const result = await client.directPayment(directPaymentInput());
    expect(result).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.json.transactionRequestId).toBe(server.requests[0]?.json.transactionRequestId);
  });

  it('does not retry a non-JSON 4xx and says what came back', async () => {
    const { server, client } = await setUp(() => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not Found</h1>' }));
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error.message).toContain('HTTP 404');
    expect(error.message).toContain('text/html');
    expect(error.message).toContain('<h1>Not Found</h1>');
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading a body over 1 MiB and reports it as a response error, without retrying', async () => {
    const { server, client } = await setUp(() => ({ body: `{"code":"0","pad":"${'x'.repeat(1024 * 1024)}"}` }));
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error.message).toContain('over 1048576 bytes');
    expect(server.requests).toHaveLength(1);
  });

  it('reports JSON that is not an envelope as a response error', async () => {
    const { client } = await setUp(() => ({ body: { ok: true } }));
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error.message).toMatch(/code .*traceId|not a response envelope/);
  });

  it('reports a success envelope without a usable checkoutUrl as a response error', async () => {
    const { client } = await setUp(() => ok({ expiresAt: '2030-01-01T00:00:00Z' }));
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toThrow(/data\.checkoutUrl/);
  });

  it('stops retrying when the next wait would pass the deadline', async () => {
    let now = 1_800_000_000_000;
    const { server, client } = await setUp(
      () => ({ status: 429, headers: { 'retry-after': '60' }, body: { code: 'S04', traceId: 't' } }),
      { clock: { now: () => now }, deadlineMs: 30_000, sleep: async (ms) => void (now += ms) },
    );
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toBeInstanceOf(PaymentRateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it('uses the injected clock for X-Timestamp', async () => {
    const { server, client } = await setUp(() => ok(sessionData), { clock: { now: () => 1_800_000_000_123 } });
    await client.createCheckoutSession(checkoutInput());
    expect(server.requests[0]?.headers['x-timestamp']).toBe('1800000000123');
  });

  it('rethrows the caller abort reason and stops', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const { server, client } = await setUp(() => {
      arrived();
      return { hang: true };
    });
    const controller = new AbortController();
    const pending = client.directPayment(directPaymentInput(), { signal: controller.signal });
    await requestArrived;
    controller.abort(new Error('customer left'));
    await expect(pending).rejects.toThrow('customer left');
    expect(server.requests).toHaveLength(1);
  });
});

describe('directPayment', () => {
  it('sends paymentMethod WALLET_PAY and the token as cardEncryptedData', async () => {
    const { server, client } = await setUp(() =>
      ok({ transactionStatus: 'F', transactionId: 'tx-2', transactionResultCode: 'CARD_DECLINED', transactionResultMsg: 'card declined' }, 'trace-f'),
    );
    const result = await client.directPayment(directPaymentInput());
    expect(result).toMatchObject({
      status: 'failed',
      transactionStatus: 'F',
      transactionId: 'tx-2',
      resultCode: 'CARD_DECLINED',
      resultMessage: 'card declined',
      traceId: 'trace-f',
      outcomeUnknown: false,
    });
    expect(server.requests[0]?.path).toBe('/v1/checkout/sale');
    expect(server.requests[0]?.json).toMatchObject({ paymentMethod: 'WALLET_PAY', cardEncryptedData: WALLET_TOKEN });
    expect(server.requests[0]?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
  });

  it('sends the vendor\'s optional fields, and refuses a productList that does not add up before sending', async () => {
    const { server, client } = await setUp(() => ok({ transactionStatus: 'S', transactionId: 'tx-3' }));
    const extras = {
      productList: [{ name: 'Teapot', amount: 1999, num: 1 }],
      customerEmail: 'ada@example.com',
      customerName: 'Ada Lovelace',
      billingAddress: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', countryCode: 'US' },
      shippingAddress: { line1: '2 Side St', countryCode: 'US' },
      merchantReturnUrl: 'https://shop.example.com/orders/2002',
    };
    await client.directPayment(directPaymentInput(extras));
    expect(server.requests[0]?.json).toMatchObject(extras);
    const error = await client
      .directPayment(directPaymentInput({ ...extras, productList: [{ name: 'Teapot', amount: 1000, num: 1 }] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect((error as PaymentValidationError).issues.map((i) => `${i.path}:${i.rule}`)).toEqual(['productList:product_list_sum']);
    expect(server.requests).toHaveLength(1);
  });

  it('maps C to closed and any other status to pending', async () => {
    const { client } = await setUp((_req, index) => ok({ transactionStatus: index === 0 ? 'C' : 'I' }));
    await expect(client.directPayment(directPaymentInput())).resolves.toMatchObject({ status: 'closed', outcomeUnknown: false });
    await expect(client.directPayment(directPaymentInput())).resolves.toMatchObject({ status: 'pending', outcomeUnknown: false });
  });

  it('resolves pending with outcomeUnknown when every attempt times out, never failed', async () => {
    const { server, client } = await setUp(() => ({ hang: true }), { timeoutMs: ATTEMPT_TIMEOUT_MS, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const result = await client.directPayment(directPaymentInput());
    expect(result.status).toBe('pending');
    expect(result.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(new Set(server.requests.map((r) => r.json.transactionRequestId))).toEqual(new Set([result.transactionRequestId]));
  });

  it('resolves pending when every attempt is reset after sending', async () => {
    const { server, client } = await setUp(() => ({ reset: true }), { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const result = await client.directPayment(directPaymentInput());
    expect(result).toMatchObject({ status: 'pending', outcomeUnknown: true });
    expect(server.requests).toHaveLength(2);
  });

  it('throws a definitive API error rather than reporting pending', async () => {
    const { client } = await setUp(() => ({ body: { code: 'E200', msg: 'bad token', traceId: 't' } }));
    await expect(client.directPayment(directPaymentInput())).rejects.toBeInstanceOf(PaymentApiError);
  });
});

describe('terminalSale and connection failures', () => {
  it('posts to the terminal sale path with amount and priceCurrency', async () => {
    const { server, client } = await setUp(() => ok({ transactionStatus: 'S', transactionId: 'tt-1' }));
    const result = await client.terminalSale({ amount: 500, priceCurrency: 'JPY', terminalId: 'T-9' });
    expect(result).toMatchObject({ status: 'succeeded', transactionId: 'tt-1' });
    expect(server.requests[0]?.path).toBe('/v1/semi-integration/transaction/sale');
    expect(server.requests[0]?.json).toMatchObject({ amount: 500, priceCurrency: 'JPY', terminalId: 'T-9', appId: 'app_123' });
  });

  it('throws PaymentNetworkError (outcome known) when nothing listens, after retrying', async () => {
    const probe = await startServiceServer(() => ok({}));
    const url = probe.url;
    await probe.close();
    const client = adopt(createPaymentClient(clientOptions(url, { sleep: async () => {} })));
    const error = (await client.directPayment(directPaymentInput()).catch((e: unknown) => e)) as PaymentNetworkError;
    expect(error).toBeInstanceOf(PaymentNetworkError);
    expect(error.outcomeUnknown).toBe(false);
  });

  it('refuses calls after close', async () => {
    const { client } = await setUp(() => ok(sessionData));
    await client.close();
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toThrow(/closed/);
  });
});
