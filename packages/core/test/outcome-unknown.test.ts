import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../../tools/adapter-testing';
import {
  createNodeMiddleware,
  createPaymentClient,
  PaymentApiError,
  PaymentNetworkError,
  PaymentResponseError,
  PaymentTimeoutError,
  type Logger,
  type PaymentClientOptions,
} from '../src';
import { ATTEMPT_TIMEOUT_MS, checkoutInput, clientOptions, directPaymentInput, WALLET_TOKEN } from './support/fixtures';
import { startServiceServer, type Reply } from './support/service-server';

/*
 * Attempt 1 may have been processed (the answer was lost), the retry with the
 * same transactionRequestId is refused. The refusal is no proof that attempt 1
 * failed: a payment is pending, never failed or "refused".
 */

const REFUSAL: Reply = { status: 400, body: { code: 'E777', msg: 'transaction request already in progress', traceId: 'trace-refusal' } };

const DOUBTS: ReadonlyArray<readonly [string, Reply, new (...args: never[]) => Error]> = [
  ['a connection reset after sending', { reset: true }, PaymentNetworkError],
  ['a time-out', { hang: true }, PaymentTimeoutError],
  ['a garbled 2xx', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>gateway</html>' }, PaymentResponseError],
];

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});

async function service(first: Reply) {
  const server = await startServiceServer((_req, index) => (index === 0 ? first : REFUSAL));
  closing.push(server);
  const lines: Array<{ fields: Record<string, unknown>; msg: string | undefined }> = [];
  const record = (fields: object | string, msg?: string) =>
    void lines.push({ fields: typeof fields === 'string' ? {} : (fields as Record<string, unknown>), msg });
  const logger: Logger = { debug: () => {}, info: record, warn: record, error: record };
  const options: PaymentClientOptions = clientOptions(server.url, { timeoutMs: ATTEMPT_TIMEOUT_MS, sleep: async () => {}, logger });
  return { server, options, lines };
}

describe.each(DOUBTS)('after %s, a refused retry', (_label, first, doubtType) => {
  it('leaves a direct payment pending (outcome unknown), never failed, and logs the refusal', async () => {
    const { server, options, lines } = await service(first);
    const client = createPaymentClient(options);
    closing.push(client);
    const result = await client.directPayment(directPaymentInput());
    expect(result).toMatchObject({ status: 'pending', outcomeUnknown: true });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.json.transactionRequestId).toBe(server.requests[0]?.json.transactionRequestId);
    expect(lines).toContainEqual({
      fields: expect.objectContaining({ transactionRequestId: result.transactionRequestId, laterRefusal: 'E777', traceId: 'trace-refusal' }),
      msg: 'payment service call outcome unknown',
    });
  });

  it('makes a checkout session throw the error of the attempt in doubt, not the refusal', async () => {
    const { options } = await service(first);
    const client = createPaymentClient(options);
    closing.push(client);
    const error = await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(doubtType);
    expect(error).not.toBeInstanceOf(PaymentApiError);
  });
});

describe('through the routes, over HTTP', () => {
  async function shop(first: Reply) {
    const { options } = await service(first);
    const middleware = createNodeMiddleware({
      client: options,
      resolveOrder: () => ({ referenceOrderId: 'order-4004', amount: { orderAmount: 1200, priceCurrency: 'USD' }, description: 'Kettle' }),
      webhook: { secret: 'whsec_outcome_unknown_0123' },
      logger: false,
      // The scripted service answers in the order requests come: no start-up query of the credentials among them.
      checkCredentials: false,
    });
    const app = await listen(middleware);
    closing.push({ close: async () => (await app.close(), await middleware.paymentRoutes.close()) });
    const post = (path: string, body: unknown) =>
      fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { post };
  }

  it('POST /wallet/pay answers 200 pending, not 502 refused', async () => {
    const { post } = await shop({ reset: true });
    const res = await post('/wallet/pay', { orderId: 'o-1', token: WALLET_TOKEN });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'pending', referenceOrderId: 'order-4004', transactionRequestId: expect.any(String) });
  });

  it("POST /checkout answers as for a lost answer (502 NETWORK_ERROR), not with the refusal's code", async () => {
    const { post } = await shop({ reset: true });
    const res = await post('/checkout', { orderId: 'o-1' });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: { code: 'NETWORK_ERROR', message: 'The payment service could not be reached or answered unexpectedly.' },
    });
  });
});

it('a refusal with no attempt in doubt before it is still definitive', async () => {
  const server = await startServiceServer(() => REFUSAL);
  closing.push(server);
  const client = createPaymentClient(clientOptions(server.url));
  closing.push(client);
  await expect(client.directPayment(directPaymentInput())).rejects.toMatchObject({ serviceCode: 'E777', traceId: 'trace-refusal' });
  expect(server.requests).toHaveLength(1);
});

it("logs a refusal with paymount's code and the service's own beside it", async () => {
  const server = await startServiceServer(() => REFUSAL);
  closing.push(server);
  const lines: Array<[string, unknown, unknown]> = [];
  const at = (level: string) => (fields: object | string, msg?: string) => void lines.push([level, fields, msg]);
  const client = createPaymentClient(clientOptions(server.url, { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } }));
  closing.push(client);
  await client.directPayment(directPaymentInput()).catch(() => undefined);
  const codes = { errorCode: 'SERVICE_REFUSED', serviceCode: 'E777' };
  expect(lines).toContainEqual(['debug', expect.objectContaining({ ...codes, status: 400 }), 'payment service call failed']);
  expect(lines).toContainEqual(['debug', expect.objectContaining({ ...codes, traceId: 'trace-refusal' }), 'payment service call gave up']);
});
