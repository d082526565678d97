import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPaymentClient, createRedactingLogger, PaymentApiError, PaymentError, type Logger, type PaymentClient } from '../src';
import { Redactor } from '../src/entries/internal';
import { API_KEY, ATTEMPT_TIMEOUT_MS, checkoutInput, clientOptions, directPaymentInput, refundInput, WALLET_TOKEN } from './support/fixtures';
import { ok, startServiceServer, type ServiceServer } from './support/service-server';

/** Every line any level receives, serialised as a log transport would write it. */
const lines: string[] = [];
const capture = (level: string) => (...args: unknown[]) => {
  lines.push(JSON.stringify({ level, args }));
};
const capturingLogger: Logger = { debug: capture('debug'), info: capture('info'), warn: capture('warn'), error: capture('error') };
const errors: unknown[] = [];

/** The distinctive inner part of the token, which must not leak even on its own. */
const TOKEN_CORE = 'c2VjcmV0LWNhcmQtY3J5cHRvZ3JhbQ';

let server: ServiceServer;
let client: PaymentClient;

beforeAll(async () => {
  // A hostile or buggy service: it echoes the request's Authorization header and body back in its answers.
  server = await startServiceServer((req, index) => {
    const echo = `${String(req.headers.authorization)} ${req.body}`;
    if (req.json.referenceOrderId === 'echo-in-data') {
      // A refusal whose data quotes the request: the raw text, the parsed body and the token as an object.
      const walletResponse = JSON.parse(String(req.json.cardEncryptedData)) as unknown;
      return { status: 400, body: { code: 'E901', msg: 'refused', traceId: 't-data', data: { echo, request: req.json, detail: { walletResponse } } } };
    }
    if (req.json.referenceOrderId === 'echo-proxy-page') {
      // Padded so the key straddles the point where the quoted snippet of the body is cut.
      return { status: 502, headers: { 'content-type': 'text/plain' }, body: `${'-'.repeat(60)}${echo}` };
    }
    switch (index % 6) {
      case 0:
        return { status: 429, body: { code: 'S04', msg: echo, traceId: 't-rate' } };
      case 1:
        return { reset: true };
      case 2:
        return { status: 502, headers: { 'content-type': 'text/plain' }, body: echo };
      case 3:
        return { body: { code: 'E900', msg: echo, traceId: 't-err' } };
      case 4:
        return { hang: true };
      default:
        return ok({
          transactionStatus: 'S',
          checkoutUrl: 'https://pay.example.com/c/1',
          transactionId: 'txn_1',
          originalTransactionId: 'txn_0',
          transactionRequestId: 'req_1',
          transactionType: 'REFUND',
          amount: { priceCurrency: 'USD', orderAmount: 500 },
          sessionId: 'cs_1',
          sessionStatus: 'EXPIRED',
        });
    }
  });
  client = createPaymentClient(
    clientOptions(server.url, {
      logger: capturingLogger,
      // Long enough that only the scripted hang times out, even on a busy machine.
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: async () => {},
    }),
  );
  const run = async (call: () => Promise<unknown>) => {
    await call().catch((error: unknown) => errors.push(error));
  };
  // Six answers cycle: S04→reset, 502→API error echoing, hang→success, repeated to hit each on every call.
  for (let round = 0; round < 3; round++) {
    await run(() => client.directPayment(directPaymentInput()));
    await run(() => client.createCheckoutSession(checkoutInput()));
    await run(() => client.refund(refundInput()));
    await run(() => client.getTransaction({ transactionId: 'txn_1' }));
    await run(() => client.expireCheckoutSession({ sessionId: 'cs_1' }));
  }
  await run(() => client.createCheckoutSession(checkoutInput({ referenceOrderId: 'echo-proxy-page' })));
  await run(() => client.directPayment(directPaymentInput({ referenceOrderId: 'echo-in-data' })));
  await run(() => client.directPayment(directPaymentInput({ referenceOrderId: 'x', amount: { orderAmount: 1.5, priceCurrency: 'USD' } })));
  await run(async () => createPaymentClient(clientOptions(server.url, { apiKey: `${API_KEY} extra`, logger: capturingLogger })));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

it('the run exercised retries, failures and successes at every log level used', () => {
  expect(server.requests.length).toBeGreaterThanOrEqual(10);
  expect(lines.some((line) => line.includes('retrying payment service call'))).toBe(true);
  const answered = lines
    .map((line) => JSON.parse(line) as { level: string; args: unknown[] })
    .find((entry) => entry.args[1] === 'payment service call answered' && (entry.args[0] as { method?: string }).method === 'POST');
  expect(answered?.level).toBe('debug');
  expect(answered?.args[0]).toMatchObject({ method: 'POST', attempt: expect.any(Number), status: 200, traceId: expect.any(String), durationMs: expect.any(Number) });
  // Every operation went out, the query as a GET, and each was answered at least once.
  const paths = new Set(server.requests.map((req) => `${req.method} ${req.path.split('?')[0]}`));
  expect(paths).toEqual(
    new Set([
      'POST /v1/checkout/sale',
      'POST /v1/checkout/create-session',
      'POST /v1/checkout/refund',
      'GET /v1/transaction/query',
      'POST /v1/checkout/expire-session',
    ]),
  );
  expect(lines.some((line) => line.includes('"method":"GET"') && line.includes('payment service call answered'))).toBe(true);
  expect(errors.length).toBeGreaterThanOrEqual(3);
  expect(errors.some((error) => (error as Error).message.includes('not JSON'))).toBe(true);
  // The echoing service really did put the secrets on the wire back to us.
  expect(server.requests.every((req) => req.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
});

it('no log line holds the API key or the wallet token', () => {
  for (const line of lines) {
    expect(line).not.toContain(API_KEY);
    expect(line).not.toContain(TOKEN_CORE);
    expect(line).not.toContain(API_KEY.slice(0, 12));
  }
});

it('no thrown error holds the API key or the wallet token, in its message or serialised', () => {
  for (const error of errors) {
    expect(error).toBeInstanceOf(PaymentError);
    const text = `${(error as Error).message} ${(error as Error).stack ?? ''} ${JSON.stringify(error)}`;
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(TOKEN_CORE);
    expect(text).not.toContain(WALLET_TOKEN);
    expect(text).not.toContain(API_KEY.slice(0, 12));
  }
});

it("keeps a refusal's data, with the API key, the wallet token and every credential-like field cut out", () => {
  const refusal = errors.find((error) => error instanceof PaymentApiError && error.serviceCode === 'E901') as PaymentApiError | undefined;
  expect(refusal?.code).toBe('SERVICE_REFUSED');
  const data = refusal?.data as { echo: string; request: Record<string, unknown>; detail: { walletResponse: Record<string, unknown> } };
  expect(data.echo).toMatch(/^Bearer \[REDACTED\] \{.*"referenceOrderId":"echo-in-data"/);
  expect(data.request).toMatchObject({ referenceOrderId: 'echo-in-data', cardEncryptedData: '[REDACTED]', amount: { orderAmount: expect.any(Number) } });
  expect(data.detail.walletResponse).toEqual({ signature: '[REDACTED]', protocolVersion: 'ECv2', signedMessage: '[REDACTED]' });
  const text = JSON.stringify(data);
  for (const secret of [API_KEY, WALLET_TOKEN, TOKEN_CORE, JSON.stringify(WALLET_TOKEN).slice(1, -1)]) expect(text).not.toContain(secret);
});

it('masks every registered secret whatever its length; the options refuse short ones before they get here', () => {
  const redactor = new Redactor();
  redactor.addSecret('k3y');
  const seen: unknown[] = [];
  const logger = createRedactingLogger({ ...capturingLogger, warn: (...args: unknown[]) => void seen.push(args) }, redactor);
  logger.warn({ detail: 'sent k3y twice: k3y' }, 'the k3y');
  expect(JSON.stringify(seen)).not.toContain('k3y');
  expect(redactor.redactString('a k3y')).toBe('a [REDACTED]');
});
