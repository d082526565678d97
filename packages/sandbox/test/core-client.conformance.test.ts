import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentClient,
  PaymentApiError,
  PaymentRateLimitError,
  PaymentResponseError,
  verifyWebhook,
  type Logger,
  type PaymentClient,
  type PaymentClientOptions,
} from '@paymount/core';
import { startSandbox, type Sandbox } from '../src/index';
import { startReceiver, uniqueId } from './helpers';

/** A logger that keeps every line, to prove no secret reaches a log. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(JSON.stringify(args));
  return { logger: { debug: record, info: record, warn: record, error: record }, lines };
}

const order = () => ({
  referenceOrderId: uniqueId('order'),
  description: 'Two mugs',
  amount: { orderAmount: 2500, priceCurrency: 'USD' },
});

describe.each([
  ['HTTPS, trusted through sandbox.ca', true],
  ['HTTP on loopback with localDevelopment', false],
])('@paymount/core client against the sandbox (%s)', (_label, https) => {
  let sandbox: Sandbox;
  let client: PaymentClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const { logger, lines } = capturingLogger();
  const tokens: string[] = [];

  const clientOptions = (overrides: Partial<PaymentClientOptions> = {}): PaymentClientOptions => ({
    ...sandbox.clientOptions(),
    logger,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...overrides,
  });

  const token = (options?: Parameters<Sandbox['mintWalletToken']>[0]) => {
    const minted = sandbox.mintWalletToken(options);
    tokens.push(minted);
    return minted;
  };
  const chargesOf = (referenceOrderId: string) => sandbox.charges().filter((c) => c.referenceOrderId === referenceOrderId);

  beforeAll(async () => {
    sandbox = await startSandbox({ https, allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5] });
    receiver = await startReceiver();
    client = createPaymentClient(clientOptions());
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
    await receiver.close();
    const all = lines.join('\n');
    expect(all).not.toContain(sandbox.apiKey);
    expect(all).not.toContain(sandbox.productionApiKey);
    expect(all).not.toContain(sandbox.webhookSecret);
    for (const minted of tokens) expect(all).not.toContain(minted);
  });

  it('creates a checkout session whose expiresAt is 30 minutes ahead', async () => {
    const before = sandbox.clock.now();
    const session = await client.createCheckoutSession({ ...order(), productList: [{ name: 'Mug', amount: 1250, num: 2 }] });
    expect(session.checkoutUrl.startsWith(`${sandbox.url}/hosted/checkout/`)).toBe(true);
    expect(session.expiresAt.getTime() - before).toBeGreaterThanOrEqual(30 * 60_000);
    expect(session.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('pays with a wallet token: succeeded, and each sandbox amount failed', async () => {
    const paid = await client.directPayment({ ...order(), cardEncryptedData: token() });
    expect(paid).toMatchObject({ status: 'succeeded', transactionStatus: 'S', outcomeUnknown: false });
    for (const amount of [8888, 8887, 7777]) {
      const failed = await client.directPayment({ ...order(), amount: { orderAmount: amount, priceCurrency: 'USD' }, cardEncryptedData: token() });
      expect(failed).toMatchObject({ status: 'failed', transactionStatus: 'F' });
    }
    const risky = await client.directPayment({ ...order(), cardEncryptedData: token({ additional3dsRequired: true }) });
    expect(risky.status).toBe('failed');
  });

  it('a PAN_ONLY token is refused as an API error naming the code', async () => {
    const attempt = client.directPayment({ ...order(), cardEncryptedData: token({ authMethod: 'PAN_ONLY' }) });
    await expect(attempt).rejects.toBeInstanceOf(PaymentApiError);
    await expect(client.directPayment({ ...order(), cardEncryptedData: token({ authMethod: 'PAN_ONLY' }) })).rejects.toMatchObject({ serviceCode: 'W04' });
  });

  it.each(['http-500', 'reset-after', 's04'] as const)('retries through a %s fault with one transactionRequestId and charges once', async (kind) => {
    sandbox.injectFault({ kind, path: '/v1/checkout/sale' });
    const input = order();
    const paid = await client.directPayment({ ...input, cardEncryptedData: token() });
    expect(paid.status).toBe('succeeded');
    const charges = chargesOf(input.referenceOrderId);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.transactionRequestId).toBe(paid.transactionRequestId);
  });

  it('a call that times out on every attempt is pending with outcomeUnknown, never failed; the sandbox did charge', async () => {
    sandbox.injectFault({ kind: 'delay', delayMs: 2_500, path: '/v1/checkout/sale' }); // answered 2 s after the client gave up, however busy the machine
    // The call has 2 s to reach the sandbox and be processed; its answer comes 2 s after the client gave up.
    const oneShot = createPaymentClient(clientOptions({ timeoutMs: 2_000, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } }));
    try {
      const input = order();
      const result = await oneShot.directPayment({ ...input, cardEncryptedData: token() });
      expect(result).toMatchObject({ status: 'pending', outcomeUnknown: true });
      expect(chargesOf(input.referenceOrderId)).toHaveLength(1);
    } finally {
      await oneShot.close();
    }
  });

  it('a non-JSON answer is a PaymentResponseError', async () => {
    sandbox.injectFault({ kind: 'non-json', times: 3, path: '/v1/checkout/create-session' });
    await expect(client.createCheckoutSession(order())).rejects.toBeInstanceOf(PaymentResponseError);
    sandbox.clearFaults();
  });

  it('a lasting S04 ends as PaymentRateLimitError', async () => {
    sandbox.injectFault({ kind: 's04', times: 3, path: '/v1/checkout/create-session' });
    await expect(client.createCheckoutSession(order())).rejects.toBeInstanceOf(PaymentRateLimitError);
  });

  it('a wrong key is refused with A02 and the key is in no message', async () => {
    const wrong = createPaymentClient(clientOptions({ apiKey: 'sk_test_not_the_right_key' }));
    try {
      const error = await wrong.createCheckoutSession(order()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentApiError);
      expect(error).toMatchObject({ serviceCode: 'A02', httpStatus: 401 });
      expect(String((error as Error).message)).not.toContain('sk_test_not_the_right_key');
    } finally {
      await wrong.close();
    }
  });

  it('the production key works on the same base URL and is recorded as production', async () => {
    const production = createPaymentClient(clientOptions({ apiKey: sandbox.productionApiKey }));
    try {
      const input = order();
      await production.directPayment({ ...input, cardEncryptedData: token() });
      expect(chargesOf(input.referenceOrderId)[0]?.environment).toBe('production');
    } finally {
      await production.close();
    }
  });

  it('a terminal sale goes through', async () => {
    const sale = await client.terminalSale({ amount: 1200, priceCurrency: 'EUR' });
    expect(sale.status).toBe('succeeded');
  });

  it('with the sandbox clock, the client keeps its timestamps in the window after 31 minutes', async () => {
    sandbox.clock.advance(31 * 60_000);
    try {
      const session = await client.createCheckoutSession(order());
      expect(session.checkoutUrl).toContain('/hosted/checkout/');
    } finally {
      sandbox.clock.reset();
    }
  });

  it('the sandbox webhook verifies with the core verifier', async () => {
    const input = order();
    await client.directPayment({ ...input, cardEncryptedData: token(), notifyUrl: receiver.url });
    await sandbox.waitForDeliveries();
    const hook = receiver.received.find((r) => r.rawBody.includes(input.referenceOrderId));
    expect(hook).toBeDefined();
    const event = await verifyWebhook({
      rawBody: Buffer.from(hook?.rawBody ?? ''),
      headers: hook?.headers ?? {},
      secret: sandbox.webhookSecret,
      toleranceMs: 5 * 60_000,
      now: sandbox.clock.now(),
    });
    expect(event).toMatchObject({ type: 'payment.succeeded', referenceOrderId: input.referenceOrderId });
  });
});
