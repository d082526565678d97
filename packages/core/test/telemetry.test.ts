import { metrics, SpanKind, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureTelemetry, childrenOf, type TelemetryCapture } from '../../../tools/telemetry-testing';
import { createPaymentClient, PaymentValidationError, signWebhook, type PaymentClientOptions, type PaymentRoutesOptions } from '../src';
import { directPaymentInput } from './support/fixtures';
import { orderAppsClosedAfterEach } from './support/order-app';

const SALE_PATH = '/v1/checkout/sale';

let sandbox: Sandbox;
let capture: TelemetryCapture;
const secrets: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [20, 40] });
  capture = captureTelemetry();
  secrets.push(sandbox.apiKey, sandbox.webhookSecret);
});
afterAll(async () => {
  await sandbox.close();
  await capture.close();
});
/** Everything exported by the cases, kept for the final scan as each case's spans are cleared. */
const exported: string[] = [];
afterEach(async () => {
  sandbox.clearFaults();
  exported.push(...(await capture.exportedText()));
  capture.reset();
});

/** Every line the clients below log, as text: asserted where a case expects one, scanned for secrets at the end. */
const logged: string[] = [];
const logLine = (level: string) => (fields: unknown, message?: string) => void logged.push(`${level} ${message} ${JSON.stringify(fields)}`);
const logger = { debug: logLine('debug'), info: logLine('info'), warn: logLine('warn'), error: logLine('error') };

/** A client on the sandbox, exporting to the capture and logging to `logged`; attempts resent at once. */
function client(overrides: Partial<PaymentClientOptions> = {}) {
  return createPaymentClient({ ...sandbox.clientOptions(), sleep: async () => {}, telemetry: capture.telemetry, logger, ...overrides });
}

function walletToken(of: Sandbox = sandbox): string {
  const token = of.mintWalletToken();
  secrets.push(token);
  return token;
}

/** The finished spans named `name`. */
const spansNamed = (name: string) => capture.spans().filter((span) => span.name === name);

describe('the client', () => {
  it('traces a call as an INTERNAL span with one CLIENT span per attempt, and counts it', async () => {
    const payments = client();
    const result = await payments.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
    await payments.close();
    expect(result.status).toBe('succeeded');

    const [call] = spansNamed(`paymount POST ${SALE_PATH}`);
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': SALE_PATH,
      'paymount.outcome': 'success',
      'paymount.attempts': 1,
      'paymount.service.code': '0',
      'paymount.service.trace_id': result.traceId,
      'paymount.transaction_request_id': result.transactionRequestId,
    });
    const attempts = childrenOf(capture.spans(), call!);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.name).toBe(`POST ${SALE_PATH}`);
    expect(attempts[0]?.kind).toBe(SpanKind.CLIENT);
    expect(attempts[0]?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': SALE_PATH,
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'paymount.attempt': 1,
      'paymount.service.code': '0',
      'paymount.service.trace_id': result.traceId,
    });
    expect(await capture.total('paymount.client.call.duration', { 'url.path': SALE_PATH, 'paymount.outcome': 'success' })).toBeGreaterThanOrEqual(1);
  });

  it('a call the sampler leaves out records no span, attempts included, and is still counted with its retries', async () => {
    const dropped = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(dropped)] });
    const callsBefore = await capture.total('paymount.client.call.duration', { 'url.path': SALE_PATH, 'paymount.outcome': 'success' });
    const retriesBefore = await capture.total('paymount.client.retries', { 'paymount.retry.reason': 'SERVICE_RATE_LIMITED' });
    sandbox.injectFault({ kind: 's04', path: SALE_PATH });
    const payments = client({ telemetry: { tracerProvider, meterProvider: capture.telemetry.meterProvider } });
    expect((await payments.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }))).status).toBe('succeeded');
    await payments.close();
    expect(dropped.getFinishedSpans()).toEqual([]);
    expect(capture.spans()).toEqual([]);
    expect(await capture.total('paymount.client.call.duration', { 'url.path': SALE_PATH, 'paymount.outcome': 'success' })).toBe(callsBefore + 1);
    expect(await capture.total('paymount.client.retries', { 'paymount.retry.reason': 'SERVICE_RATE_LIMITED' })).toBe(retriesBefore + 1);
    await tracerProvider.shutdown();
  });

  it('marks a resent attempt with its resend count and the reason, and counts the retry', async () => {
    const before = await capture.total('paymount.client.retries', { 'paymount.retry.reason': 'SERVICE_RATE_LIMITED' });
    sandbox.injectFault({ kind: 's04', path: SALE_PATH });
    const payments = client();
    await payments.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
    await payments.close();

    const [call] = spansNamed(`paymount POST ${SALE_PATH}`);
    expect(call?.attributes).toMatchObject({ 'paymount.outcome': 'success', 'paymount.attempts': 2 });
    expect(call?.events.map((event) => event.attributes)).toEqual([{ 'paymount.retry.reason': 'SERVICE_RATE_LIMITED', 'paymount.attempt': 1 }]);
    const [first, second] = childrenOf(capture.spans(), call!).sort((a, b) => Number(a.attributes['paymount.attempt']) - Number(b.attributes['paymount.attempt']));
    expect(first?.attributes).toMatchObject({ 'http.response.status_code': 429, 'paymount.service.code': 'S04', 'error.type': 'SERVICE_RATE_LIMITED' });
    expect(second?.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1, 'paymount.retry.reason': 'SERVICE_RATE_LIMITED' });
    expect(await capture.total('paymount.client.retries', { 'paymount.retry.reason': 'SERVICE_RATE_LIMITED' })).toBe(before + 1);
    expect(logged).toContainEqual(expect.stringMatching(/^warn retrying payment service call .*"reason":"SERVICE_RATE_LIMITED"/));
  });

  it('reports a write whose answer was lost as outcome unknown, not as a failure', async () => {
    sandbox.injectFault({ kind: 'reset-after', path: SALE_PATH });
    const payments = client({ retry: { maxAttempts: 1 } });
    const result = await payments.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
    await payments.close();
    expect(result.status).toBe('pending');

    const [call] = spansNamed(`paymount POST ${SALE_PATH}`);
    expect(call?.attributes).toMatchObject({ 'paymount.outcome': 'unknown', 'error.type': 'NETWORK_ERROR' });
    expect(await capture.total('paymount.client.call.duration', { 'paymount.outcome': 'unknown' })).toBe(1);
    expect(logged).toContainEqual(expect.stringMatching(/^warn payment service call outcome unknown .*"errorCode":"NETWORK_ERROR"/));
  });

  it('reports a refusal of the service as api_error with its code, on the span and the counter', async () => {
    const payments = client();
    // The sandbox refuses a transaction query for an id it never saw.
    await expect(payments.getTransaction({ transactionRequestId: 'never-sent-0001' })).rejects.toThrow();
    await payments.close();
    const [call] = spansNamed('paymount GET /v1/transaction/query');
    expect(call?.attributes['paymount.outcome']).toBe('api_error');
    expect(call?.attributes['url.path']).toBe('/v1/transaction/query');
    expect(call?.attributes['paymount.service.code']).toEqual(expect.any(String));
    expect(await capture.total('paymount.client.call.duration', { 'url.path': '/v1/transaction/query', 'paymount.outcome': 'api_error' })).toBe(1);
  });

  it('uses the global providers by default, and nothing at all with telemetry: false', async () => {
    const global = captureTelemetry();
    trace.setGlobalTracerProvider(global.telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(global.telemetry.meterProvider);
    try {
      const byDefault = client({ telemetry: undefined });
      await byDefault.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
      await byDefault.close();
      expect(global.spans().map((span) => span.name)).toEqual([`POST ${SALE_PATH}`, `paymount POST ${SALE_PATH}`]);
      expect(await global.total('paymount.client.call.duration')).toBe(1);

      global.reset();
      const off = client({ telemetry: false });
      await off.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
      await off.close();
      expect(global.spans()).toEqual([]);
      expect(await global.total('paymount.client.call.duration')).toBe(1);
    } finally {
      trace.disable();
      metrics.disable();
      await global.close();
    }
  });

  it('a default client made before any provider is registered traces once a tracer provider is registered', async () => {
    const global = captureTelemetry();
    const early = client({ telemetry: undefined });
    try {
      await early.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
      expect(global.spans()).toEqual([]);
      trace.setGlobalTracerProvider(global.telemetry.tracerProvider);
      await early.directPayment(directPaymentInput({ cardEncryptedData: walletToken() }));
      expect(global.spans().map((span) => span.name)).toEqual([`POST ${SALE_PATH}`, `paymount POST ${SALE_PATH}`]);
    } finally {
      await early.close();
      trace.disable();
      await global.close();
    }
  });

  it('refuses a telemetry option that is not false or providers, before anything is sent', () => {
    const attempt = () => client({ telemetry: { tracerProvider: {} } as never });
    expect(attempt).toThrow(PaymentValidationError);
    try {
      attempt();
    } catch (error) {
      expect((error as PaymentValidationError).issues).toEqual([
        expect.objectContaining({ path: 'telemetry' }),
      ]);
    }
  });
});

describe('the routes', () => {
  const appsOf = orderAppsClosedAfterEach();
  /** A shop over real HTTP exporting to the capture, its own sandbox's secrets added to the scanned ones. */
  const app = async (options: Partial<PaymentRoutesOptions> = {}) => {
    const shop = await appsOf({ options: () => ({ telemetry: capture.telemetry, ...options }) });
    secrets.push(shop.sandbox.apiKey, shop.sandbox.webhookSecret);
    return shop;
  };

  it('trace a payment request with its order, the service call inside it, and the webhook delivery it brings', async () => {
    const shop = await app();
    const orderId = shop.order();
    const token = walletToken(shop.sandbox);
    expect((await shop.pay(orderId, token)).json).toMatchObject({ status: 'succeeded' });
    await expect.poll(() => shop.events.length).toBe(1);
    await expect.poll(() => spansNamed('POST /webhook').length).toBe(1);

    const [pay] = spansNamed('POST /wallet/pay');
    expect(pay?.kind).toBe(SpanKind.SERVER);
    expect(pay?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/wallet/pay',
      'http.response.status_code': 200,
      'paymount.order.id': orderId,
      'paymount.order.reference_id': orderId,
    });
    const [call] = childrenOf(capture.spans(), pay!);
    expect(call?.name).toBe(`paymount POST ${SALE_PATH}`);

    const [delivery] = spansNamed('POST /webhook');
    expect(delivery?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'paymount.webhook.verification': 'verified',
      'paymount.event.type': 'payment.succeeded',
      'paymount.webhook.result': 'handled',
      'paymount.webhook.handler.duration': expect.any(Number),
    });
    expect(await capture.total('paymount.webhook.deliveries', { 'paymount.webhook.result': 'handled' })).toBeGreaterThanOrEqual(1);
    expect(await capture.total('paymount.webhook.handler.duration', { 'paymount.event.type': 'payment.succeeded' })).toBeGreaterThanOrEqual(1);

    // An order the merchant no longer takes payment for: refused by the guard, nothing sent.
    const refusalsBefore = await capture.total('paymount.orders.guard_refusals', { 'paymount.order_guard.reason': 'ORDER_NOT_PAYABLE' });
    const refused = await shop.pay(shop.order({ payable: false }), walletToken(shop.sandbox));
    expect(refused.status).toBe(409);
    expect(await capture.total('paymount.orders.guard_refusals', { 'http.route': '/wallet/pay', 'paymount.order_guard.reason': 'ORDER_NOT_PAYABLE' })).toBe(refusalsBefore + 1);
  });

  it('of an app mounted before any provider is registered record nothing, then trace once a tracer provider is registered', async () => {
    const global = captureTelemetry();
    const shop = await app({ telemetry: undefined });
    try {
      expect((await shop.pay(shop.order(), walletToken(shop.sandbox))).json).toMatchObject({ status: 'succeeded' });
      expect(global.spans()).toEqual([]);
      trace.setGlobalTracerProvider(global.telemetry.tracerProvider);
      expect((await shop.pay(shop.order(), walletToken(shop.sandbox))).json).toMatchObject({ status: 'succeeded' });
      const [pay] = global.spans().filter((span) => span.name === 'POST /wallet/pay');
      expect(pay?.attributes).toMatchObject({ 'http.route': '/wallet/pay', 'http.response.status_code': 200 });
      expect(childrenOf(global.spans(), pay!).map((span) => span.name)).toEqual([`paymount POST ${SALE_PATH}`]);
    } finally {
      trace.disable();
      await global.close();
    }
  });

  it('count a redelivered event as a dedupe hit and a forged one as rejected before verification', async () => {
    const shop = await app();
    const delivery = signWebhook({
      payload: { transactionId: 'TX-otel-1', transactionRequestId: 'REQ-otel-1', referenceOrderId: 'order-otel', transactionType: 'SALE', transactionStatus: 'S', amount: { orderAmount: 100, priceCurrency: 'USD' } },
      secret: shop.sandbox.webhookSecret,
      timestamp: shop.sandbox.clock.now(),
    });
    const post = (body: string, headers: Record<string, string>) => fetch(`${shop.routesUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post(delivery.body, delivery.headers)).status).toBe(200);
    expect((await post(delivery.body, delivery.headers)).status).toBe(200);
    expect((await post(delivery.body, { ...delivery.headers, 'x-signature': 'f'.repeat(64) })).status).toBe(400);

    const results = spansNamed('POST /webhook').map((span) => [span.attributes['paymount.webhook.result'], span.attributes['paymount.webhook.verification']]);
    expect(results).toEqual([['handled', 'verified'], ['duplicate', 'verified'], ['rejected', 'failed']]);
    expect(spansNamed('POST /webhook')[2]?.attributes['error.type']).toBe('WEBHOOK_BAD_SIGNATURE');
    expect(await capture.total('paymount.webhook.dedupe_hits', { 'paymount.event.type': 'payment.succeeded' })).toBeGreaterThanOrEqual(1);
    expect(await capture.total('paymount.webhook.deliveries', { 'paymount.webhook.result': 'rejected' })).toBeGreaterThanOrEqual(1);
  });

  it('trace a reconciliation run and count the attempts it settled', async () => {
    const shop = await app({ notifyUrl: () => undefined });
    const settledBefore = await capture.total('paymount.reconciliation.settled');
    expect((await shop.pay(shop.order(), walletToken(shop.sandbox))).json).toMatchObject({ status: 'succeeded' });
    shop.sandbox.clock.advance(60_000);
    expect(await shop.paymentRoutes.reconcile()).toMatchObject({ checked: 1, settled: 1 });
    const [run] = spansNamed('paymount reconcile');
    expect(run?.attributes).toMatchObject({ 'paymount.reconciliation.checked': 1, 'paymount.reconciliation.settled': 1 });
    // The query it made is traced inside it.
    expect(childrenOf(capture.spans(), run!).map((span) => span.name)).toContain('paymount GET /v1/transaction/query');
    expect(await capture.total('paymount.reconciliation.settled')).toBe(settledBefore + 1);
  });
});

// Runs last: it scans what every case above exported.
it('never exports the API key, the webhook secret or a wallet token in a span or a metric', async () => {
  const texts = [...exported, ...(await capture.exportedText()), ...logged];
  expect(texts.length).toBeGreaterThan(20);
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
});
