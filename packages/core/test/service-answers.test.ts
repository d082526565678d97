import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../tools/adapter-testing';
import {
  createNodeMiddleware,
  createPaymentClient,
  PaymentResponseError,
  type PaymentClientOptions,
  type PaymentRoutesOptions,
} from '../src';
import { SESSION_LIFETIME_MS } from '../src/entries/internal';
import { checkoutInput, clientOptions, directPaymentInput } from './support/fixtures';
import { ok, startServiceServer, type Reply, type Responder, type ServiceServer } from './support/service-server';
import { selfSignedCertificate } from './support/tls-certificate';

/*
 * Answers from the service are checked, not trusted: a checkoutUrl becomes the
 * shopper's redirect, an expiresAt becomes a Date the routes serialise, and a
 * success is believed only on a 2xx.
 */

const certificate = selfSignedCertificate();
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});

/** The scripted service over HTTPS (a certificate trusted through `ca`), so the client runs outside local development. */
async function httpsService(respond: Responder): Promise<{ server: ServiceServer; options: PaymentClientOptions }> {
  const server = await startServiceServer(respond, certificate);
  closing.push(server);
  const options = clientOptions(server.url, { ca: certificate.cert, localDevelopment: false, sleep: async () => {} });
  return { server, options };
}

async function plainService(respond: Responder): Promise<{ server: ServiceServer; options: PaymentClientOptions }> {
  const server = await startServiceServer(respond);
  closing.push(server);
  return { server, options: clientOptions(server.url, { sleep: async () => {} }) };
}

/** A real node:http app serving the routes for one order, its client on `client`. */
async function shop(client: PaymentClientOptions): Promise<Listening> {
  const options: PaymentRoutesOptions = {
    client,
    resolveOrder: () => ({ referenceOrderId: 'order-5005', amount: { orderAmount: 900, priceCurrency: 'USD' }, description: 'Cup' }),
    webhook: { secret: 'whsec_service_answers_0123' },
    logger: false,
    // The scripted service answers in the order requests come: no start-up query of the credentials among them.
    checkCredentials: false,
  };
  const middleware = createNodeMiddleware(options, { mountPath: '/payments' });
  const app = await listen(middleware);
  closing.push({ close: async () => (await app.close(), await middleware.paymentRoutes.close()) });
  return app;
}

const checkoutForm = (app: Listening) =>
  fetch(`${app.url}/payments/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'orderId=o-1',
    redirect: 'manual',
  });

const checkoutJson = (app: Listening) =>
  fetch(`${app.url}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"o-1"}' });

describe('checkoutUrl', () => {
  it('an http checkoutUrl from the service is refused outside local development, and never becomes a redirect', async () => {
    const { options } = await httpsService(() => ok({ checkoutUrl: 'http://pay.example.com/c/plain' }));
    const client = createPaymentClient(options);
    closing.push(client);
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error).toMatchObject({ code: 'MALFORMED_RESPONSE', httpStatus: 200 });
    expect(error.message).toContain('data.checkoutUrl must be an https URL');

    const res = await checkoutForm(await shop(options));
    expect(res.status).toBe(502);
    expect(res.headers.get('location')).toBeNull();
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://pay.example.com/c/1'])('refuses a %s checkoutUrl even in local development', async (checkoutUrl) => {
    const { options } = await plainService(() => ok({ checkoutUrl }));
    const client = createPaymentClient(options);
    closing.push(client);
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toThrow(/data\.checkoutUrl/);
  });

  it('accepts an http checkoutUrl in local development (a sandbox on this machine)', async () => {
    const { options } = await plainService(() => ok({ checkoutUrl: 'http://127.0.0.1:4010/hosted/checkout/s1' }));
    const client = createPaymentClient(options);
    closing.push(client);
    await expect(client.createCheckoutSession(checkoutInput())).resolves.toMatchObject({ checkoutUrl: 'http://127.0.0.1:4010/hosted/checkout/s1' });
  });
});

describe('HTTP status of a success envelope', () => {
  const success = (status: number): Reply => ({ status, body: { code: '0', traceId: 't-odd', data: { checkoutUrl: 'https://pay.example.com/c/1', transactionStatus: 'S' } } });

  it.each([301, 302, 400, 404, 409])('code "0" on HTTP %i is a malformed answer, not a session, and is not retried', async (status) => {
    const { server, options } = await plainService(() => success(status));
    const client = createPaymentClient(options);
    closing.push(client);
    const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentResponseError;
    expect(error).toBeInstanceOf(PaymentResponseError);
    expect(error).toMatchObject({ code: 'MALFORMED_RESPONSE', httpStatus: status });
    expect(error.message).toContain(`HTTP ${status} with code "0"`);
    expect(server.requests).toHaveLength(1);
  });

  it('code "0" on a 3xx for a payment is neither succeeded nor failed: the outcome is unknown (pending)', async () => {
    const { options } = await plainService(() => success(302));
    const client = createPaymentClient(options);
    closing.push(client);
    await expect(client.directPayment(directPaymentInput())).resolves.toMatchObject({ status: 'pending', outcomeUnknown: true });
  });

  it('code "0" on a 5xx is retried like any 5xx; when every attempt gets one, the session call fails', async () => {
    const { server, options } = await plainService(() => success(500));
    const client = createPaymentClient(options);
    closing.push(client);
    await expect(client.createCheckoutSession(checkoutInput())).rejects.toBeInstanceOf(PaymentResponseError);
    expect(server.requests).toHaveLength(3);
  });
});

describe('expiresAt', () => {
  it.each([
    ['1e20 (past what a Date holds)', 1e20],
    ['a year ahead', () => new Date(Date.now() + 365 * 86_400_000).toISOString()],
    ['zero', 0],
  ] as const)('an implausible expiresAt (%s) is replaced by receipt + 30 minutes, and the route still answers 201', async (_label, value) => {
    const expiresAt = typeof value === 'function' ? value() : value;
    const { options } = await plainService(() => ok({ checkoutUrl: 'https://pay.example.com/c/1', expiresAt }));
    const app = await shop(options);
    const before = Date.now();
    const res = await checkoutJson(app);
    const after = Date.now();
    expect(res.status).toBe(201);
    const body = (await res.json()) as { expiresAt: string };
    const at = Date.parse(body.expiresAt);
    expect(at).toBeGreaterThanOrEqual(before + SESSION_LIFETIME_MS);
    expect(at).toBeLessThanOrEqual(after + SESSION_LIFETIME_MS);
  });

  it('an expiresAt an hour ago is believed (a session opened before, answered again): the route tries the order\'s next ids, 5 at most', async () => {
    const expiresAt = new Date(Date.now() - 3_600_000).toISOString();
    const { server, options } = await plainService(() => ok({ checkoutUrl: 'https://pay.example.com/c/1', expiresAt }));
    const res = await checkoutJson(await shop(options));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ expiresAt });
    const ids = server.requests.map((request) => (JSON.parse(request.body) as { transactionRequestId: string }).transactionRequestId);
    expect(ids.map((id) => id.slice(-2))).toEqual(['-0', '-1', '-2', '-3', '-4']);
  });

  it('a plausible expiresAt is kept as the service gave it', async () => {
    const expiresAt = new Date(Date.now() + 20 * 60_000).toISOString();
    const { options } = await plainService(() => ok({ checkoutUrl: 'https://pay.example.com/c/1', expiresAt }));
    const res = await checkoutJson(await shop(options));
    expect(await res.json()).toEqual({ checkoutUrl: 'https://pay.example.com/c/1', expiresAt });
  });
});
