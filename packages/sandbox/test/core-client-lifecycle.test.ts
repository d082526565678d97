import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentClient,
  PaymentApiError,
  PaymentNotFoundError,
  PaymentValidationError,
  verifyWebhook,
  type Logger,
  type PaymentClient,
  type PaymentClientOptions,
  type RefundInput,
} from '@paymount/core';
import { startSandbox, type Sandbox } from '../src/index';
import { startReceiver, uniqueId } from './helpers';

/**
 * The lifecycle calls of @paymount/core's client (refund, transaction query,
 * expire-session) against the sandbox over real HTTP: what the client sends
 * is what the sandbox takes, and what the sandbox answers is what the client
 * reads.
 */
let sandbox: Sandbox;
let client: PaymentClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const lines: string[] = [];
const record = (...args: unknown[]) => void lines.push(JSON.stringify(args));
const logger: Logger = { debug: record, info: record, warn: record, error: record };
const tokens: string[] = [];

const clientOptions = (overrides: Partial<PaymentClientOptions> = {}): PaymentClientOptions => ({
  ...sandbox.clientOptions(),
  logger,
  retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
  ...overrides,
});

beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5] });
  receiver = await startReceiver();
  client = createPaymentClient(clientOptions());
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  await receiver.close();
});

/** A wallet payment of `orderAmount` (+ `taxAmount`) USD that the sandbox charges. */
async function pay(orderAmount: number, taxAmount = 0) {
  const cardEncryptedData = sandbox.mintWalletToken();
  tokens.push(cardEncryptedData);
  const payment = await client.directPayment({
    referenceOrderId: uniqueId('order'),
    description: 'Mugs',
    amount: { orderAmount, taxAmount, priceCurrency: 'USD' },
    cardEncryptedData,
  });
  expect(payment).toMatchObject({ status: 'succeeded', transactionId: expect.any(String) });
  return { ...payment, transactionId: payment.transactionId! };
}

const refundsOf = (transactionId: string) => sandbox.refunds().filter((r) => r.originalTransactionId === transactionId);
const refunded = (transactionId: string) =>
  refundsOf(transactionId)
    .filter((r) => r.transactionStatus === 'S')
    .reduce((sum, r) => sum + r.amount.totalAmount, 0);

async function answeredRefund(input: RefundInput) {
  const result = await client.refund(input);
  if (result.outcomeUnknown) throw new Error('expected an answered refund');
  return result;
}

describe('refund', () => {
  it('refunds a payment in full when no amount is sent, as its own transaction', async () => {
    const payment = await pay(2500, 200);
    const refund = await answeredRefund({ originalTransactionId: payment.transactionId, description: 'Order cancelled' });
    expect(refund).toMatchObject({
      status: 'succeeded',
      transactionStatus: 'S',
      originalTransactionId: payment.transactionId,
      amount: { priceCurrency: 'USD', totalAmount: 2700 },
      createdAt: expect.any(Date),
      completedAt: expect.any(Date),
      outcomeUnknown: false,
    });
    expect(refund.transactionId).not.toBe(payment.transactionId);
    expect(refunded(payment.transactionId)).toBe(2700);

    const original = await client.getTransaction({ transactionId: payment.transactionId });
    expect(original).toMatchObject({ status: 'succeeded', transactionType: 'SALE', relatedTransactionStatus: 'REFUNDED' });
    const own = await client.getTransaction({ transactionRequestId: refund.transactionRequestId });
    expect(own).toMatchObject({
      status: 'succeeded',
      transactionType: 'REFUND',
      transactionId: refund.transactionId,
      transactionRequestId: refund.transactionRequestId,
      amount: { totalAmount: 2700 },
    });
  });

  it('refunds in parts, named by either id, each with its own 64-character transactionRequestId, until the whole is refunded', async () => {
    const payment = await pay(2500, 200);
    const first = await answeredRefund({
      originalTransactionId: payment.transactionId,
      transactionRequestId: `refund-${'a'.repeat(57)}`,
      amount: { priceCurrency: 'USD', orderAmount: 500 },
    });
    expect(first).toMatchObject({ status: 'succeeded', transactionRequestId: `refund-${'a'.repeat(57)}`, amount: { totalAmount: 500 } });
    expect((await client.getTransaction({ transactionId: payment.transactionId })).relatedTransactionStatus).toBe('PART_REFUNDED');

    const second = await answeredRefund({
      originalTransactionRequestId: payment.transactionRequestId,
      amount: { priceCurrency: 'USD', orderAmount: 2000, taxAmount: 200, totalAmount: 2200 },
    });
    expect(second).toMatchObject({ status: 'succeeded', originalTransactionId: payment.transactionId, amount: { totalAmount: 2200 } });
    expect(refundsOf(payment.transactionId)).toHaveLength(2);
    expect(refunded(payment.transactionId)).toBe(2700);
    expect((await client.getTransaction({ transactionRequestId: payment.transactionRequestId })).relatedTransactionStatus).toBe('REFUNDED');
  });

  it('refuses a refund of more than what remains with its own code, and refunds nothing', async () => {
    const payment = await pay(1000);
    await answeredRefund({ originalTransactionId: payment.transactionId, amount: { priceCurrency: 'USD', orderAmount: 600 } });
    const over = await client
      .refund({ originalTransactionId: payment.transactionId, amount: { priceCurrency: 'USD', orderAmount: 500 } })
      .catch((e: unknown) => e);
    expect(over).toBeInstanceOf(PaymentApiError);
    expect(over).not.toBeInstanceOf(PaymentNotFoundError);
    expect(over).toMatchObject({ serviceCode: 'T06', httpStatus: 409 });
    expect((over as PaymentApiError).msg).toContain('400');
    expect(refundsOf(payment.transactionId)).toHaveLength(1);
    expect(refunded(payment.transactionId)).toBe(600);

    // The rest, then nothing more.
    await answeredRefund({ originalTransactionId: payment.transactionId });
    await expect(client.refund({ originalTransactionId: payment.transactionId })).rejects.toMatchObject({ serviceCode: 'T06' });
    expect(refunded(payment.transactionId)).toBe(1000);
  });

  it('a refund the sandbox declines (a refund of 8888) is failed with its reason, and refunds nothing', async () => {
    const payment = await pay(10_000);
    const declined = await answeredRefund({ originalTransactionId: payment.transactionId, amount: { priceCurrency: 'USD', orderAmount: 8888 } });
    expect(declined).toMatchObject({ status: 'failed', transactionStatus: 'F', resultCode: 'REFUND_DECLINED', resultMessage: expect.any(String) });
    expect(refunded(payment.transactionId)).toBe(0);
    expect(await client.getTransaction({ transactionId: declined.transactionId })).toMatchObject({ status: 'failed', transactionType: 'REFUND' });
    expect(await client.getTransaction({ transactionId: payment.transactionId })).not.toHaveProperty('relatedTransactionStatus');
  });

  it('refunding an unknown payment is PaymentNotFoundError; a failed one is refused with its own code', async () => {
    const unknown = await client.refund({ originalTransactionId: 'txn_nobody_has_this' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PaymentNotFoundError);
    expect(unknown).toMatchObject({ serviceCode: 'T01', httpStatus: 404 });

    const cardEncryptedData = sandbox.mintWalletToken();
    tokens.push(cardEncryptedData);
    const declined = await client.directPayment({
      referenceOrderId: uniqueId('order'),
      description: 'Declined',
      amount: { orderAmount: 8888, priceCurrency: 'USD' },
      cardEncryptedData,
    });
    expect(declined).toMatchObject({ status: 'failed', resultCode: 'CARD_DECLINED' });
    await expect(client.refund({ originalTransactionId: declined.transactionId! })).rejects.toMatchObject({ serviceCode: 'T02' });
    expect(refundsOf(declined.transactionId!)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['both ids', { originalTransactionRequestId: 'pay-req-1' }, 'originalTransactionRequestId:only_one'],
    ['neither id', { originalTransactionId: undefined }, 'originalTransactionId:one_required'],
    ['a decimal amount', { amount: { priceCurrency: 'USD', orderAmount: 2.5 } }, 'amount.orderAmount:integer_minor_units'],
    ['a totalAmount other than the parts', { amount: { priceCurrency: 'USD', orderAmount: 200, totalAmount: 250 } }, 'amount.totalAmount:total_amount_sum'],
  ])('refuses %s before anything reaches the sandbox', async (_what, overrides, rule) => {
    const payment = await pay(1000);
    const before = sandbox.refunds().length;
    const input = { originalTransactionId: payment.transactionId, ...overrides } as RefundInput;
    const error = (await client.refund(input).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual([rule]);
    expect(sandbox.refunds()).toHaveLength(before);
  });

  it('a refund webhook carries the refund\'s own transactionId and the payment\'s originalTransactionId', async () => {
    const payment = await pay(1500);
    const refund = await answeredRefund({
      originalTransactionId: payment.transactionId,
      amount: { priceCurrency: 'USD', orderAmount: 300 },
      notifyUrl: receiver.url,
    });
    await sandbox.waitForDeliveries();
    const hook = receiver.received.find((r) => r.rawBody.includes(refund.transactionId));
    const event = await verifyWebhook({
      rawBody: Buffer.from(hook?.rawBody ?? ''),
      headers: hook?.headers ?? {},
      secret: sandbox.webhookSecret,
      now: sandbox.clock.now(),
    });
    expect(event).toMatchObject({
      type: 'refund.succeeded',
      transactionId: refund.transactionId,
      originalTransactionId: payment.transactionId,
      transactionRequestId: refund.transactionRequestId,
      referenceOrderId: expect.any(String),
      amount: { totalAmount: 300 },
    });
  });

  it('retries a connection reset after the sandbox refunded with the same transactionRequestId: one refund', async () => {
    const payment = await pay(1200);
    sandbox.injectFault({ kind: 'reset-after', path: '/v1/checkout/refund' });
    const refund = await answeredRefund({ originalTransactionId: payment.transactionId, amount: { priceCurrency: 'USD', orderAmount: 700 } });
    expect(refund.status).toBe('succeeded');
    expect(refundsOf(payment.transactionId)).toEqual([expect.objectContaining({ transactionRequestId: refund.transactionRequestId })]);
    expect(refunded(payment.transactionId)).toBe(700);
  });

  it('a refund whose every attempt times out is pending, never failed; asked again with its transactionRequestId it is answered, still once', async () => {
    const payment = await pay(1300);
    sandbox.injectFault({ kind: 'delay', delayMs: 2_500, path: '/v1/checkout/refund' }); // answered 2 s after the client gave up, however busy the machine
    // The call has 2 s to reach the sandbox and be processed; its answer comes 2 s after the client gave up.
    const oneShot = createPaymentClient(clientOptions({ timeoutMs: 2_000, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } }));
    try {
      const input: RefundInput = { originalTransactionId: payment.transactionId, amount: { priceCurrency: 'USD', orderAmount: 400 } };
      const unknown = await oneShot.refund(input);
      expect(unknown).toEqual({ status: 'pending', transactionRequestId: expect.any(String), outcomeUnknown: true });
      // Asked again by the patient client: the sandbox answers the first refund, it refunds nothing more.
      const again = await answeredRefund({ ...input, transactionRequestId: unknown.transactionRequestId });
      expect(again).toMatchObject({ status: 'succeeded', transactionRequestId: unknown.transactionRequestId });
      expect(refundsOf(payment.transactionId)).toHaveLength(1);
      expect(refunded(payment.transactionId)).toBe(400);
    } finally {
      await oneShot.close();
    }
  });
});

describe('getTransaction', () => {
  it('an unknown transaction is PaymentNotFoundError (T01), by either id', async () => {
    for (const lookup of [{ transactionId: 'txn_nobody_has_this' }, { transactionRequestId: 'nobody-has-this' }]) {
      const error = await client.getTransaction(lookup).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentNotFoundError);
      expect(error).toMatchObject({ serviceCode: 'T01', httpStatus: 404, traceId: expect.any(String) });
    }
  });

  it('is retried through a 5xx, a reset and a time-out of the GET', async () => {
    const payment = await pay(900);
    const attempts: Array<{ method?: string; attempt?: number; status?: number }> = [];
    const attemptLog = (fields: unknown) => void attempts.push(fields as (typeof attempts)[number]);
    const patient = createPaymentClient(
      clientOptions({
        // The delayed attempt is cut 2 s before its answer comes, and the others have 2 s to be answered, on a busy machine too.
        timeoutMs: 2_000,
        retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 1 },
        logger: { ...logger, debug: (fields: unknown, ...rest: unknown[]) => (attemptLog(fields), record(fields, ...rest)) },
      }),
    );
    try {
      for (const fault of [{ kind: 'http-500' }, { kind: 'reset-before' }, { kind: 'delay', delayMs: 4_000 }] as const) {
        sandbox.injectFault({ ...fault, path: '/v1/transaction/query' });
      }
      const details = await patient.getTransaction({ transactionId: payment.transactionId });
      expect(details).toMatchObject({ status: 'succeeded', transactionId: payment.transactionId, amount: { orderAmount: 900, priceCurrency: 'USD' } });
      expect(attempts.map((a) => [a.method, a.attempt, a.status])).toEqual([
        ['GET', 1, 500],
        ['GET', 2, undefined],
        ['GET', 3, undefined],
        ['GET', 4, 200],
      ]);
    } finally {
      sandbox.clearFaults();
      await patient.close();
    }
  });
});

describe('expireCheckoutSession', () => {
  const session = () =>
    client.createCheckoutSession({
      referenceOrderId: uniqueId('order'),
      description: 'Abandoned cart',
      amount: { orderAmount: 1800, priceCurrency: 'USD' },
    });

  it('expires an open session at once: its page answers 410 and its transaction queries closed, not refundable', async () => {
    const open = await session();
    expect((await client.getTransaction({ transactionRequestId: open.transactionRequestId })).status).toBe('pending');
    const expired = await client.expireCheckoutSession({ sessionId: open.sessionId!, reason: 'shopper left' });
    expect(expired).toMatchObject({
      sessionId: open.sessionId,
      sessionStatus: 'EXPIRED',
      expiredAt: expect.any(Date),
      transactionRequestId: open.transactionRequestId,
    });
    expect((await request(open.checkoutUrl)).statusCode).toBe(410);

    const details = await client.getTransaction({ transactionRequestId: open.transactionRequestId });
    expect(details).toMatchObject({ status: 'closed', transactionStatus: 'C', transactionType: 'SALE' });
    await expect(client.refund({ originalTransactionRequestId: open.transactionRequestId })).rejects.toMatchObject({ serviceCode: 'T03' });

    // Expiring it again answers its state again.
    await expect(client.expireCheckoutSession({ sessionId: open.sessionId! })).resolves.toMatchObject({ sessionStatus: 'EXPIRED' });
  });

  it('an unknown session is PaymentNotFoundError (H01); a paid one is refused (H02) and can be refunded instead', async () => {
    const unknown = await client.expireCheckoutSession({ sessionId: 'cs_nobody_has_this' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PaymentNotFoundError);
    expect(unknown).toMatchObject({ serviceCode: 'H01', httpStatus: 404 });

    const paid = await session();
    const page = await request(`${paid.checkoutUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    await page.body.text();
    const refused = await client.expireCheckoutSession({ sessionId: paid.sessionId! }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentApiError);
    expect(refused).not.toBeInstanceOf(PaymentNotFoundError);
    expect(refused).toMatchObject({ serviceCode: 'H02' });
    const refund = await answeredRefund({ originalTransactionRequestId: paid.transactionRequestId });
    expect(refund).toMatchObject({ status: 'succeeded', amount: { totalAmount: 1800 } });
  });
});

it('no log line of any call holds the API key, the webhook secret or a wallet token', () => {
  expect(lines.some((line) => line.includes('"method":"GET"'))).toBe(true);
  const all = lines.join('\n');
  expect(all).not.toContain(sandbox.apiKey);
  expect(all).not.toContain(sandbox.webhookSecret);
  for (const token of tokens) expect(all).not.toContain(token);
});
