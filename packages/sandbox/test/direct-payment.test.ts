import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { post, saleBody, sessionBody, startReceiver } from './helpers';

const SALE = '/v1/checkout/sale';

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5, 5] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const total = (orderAmount: number, taxAmount = 0) => ({ orderAmount, taxAmount, priceCurrency: 'USD' });

describe('direct payment', () => {
  it('charges a sandbox wallet token and answers S with the transaction', async () => {
    const body = saleBody(sandbox);
    const answer = await post(sandbox, SALE, body);
    expect(answer.status).toBe(200);
    expect(answer.json.code).toBe('0');
    expect(answer.json.data).toMatchObject({
      transactionStatus: 'S',
      transactionRequestId: body.transactionRequestId,
      referenceOrderId: body.referenceOrderId,
      amount: { orderAmount: 2500, taxAmount: 0, surchargeAmount: 0, priceCurrency: 'USD' },
    });
    expect(answer.json.data.transactionId).toMatch(/^txn_/);
    expect(answer.text).not.toContain(String(body.cardEncryptedData));
    const charges = sandbox.charges().filter((charge) => charge.referenceOrderId === body.referenceOrderId);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ channel: 'direct', environment: 'test', transactionStatus: 'S', authMethod: 'CRYPTOGRAM_3DS' });
  });

  it.each([
    [8888, 'CARD_DECLINED'],
    [8887, 'INSUFFICIENT_BALANCE'],
    [7777, 'TRANSACTION_TIMEOUT'],
  ])('sandbox amount %i on the payable total fails with F (%s)', async (amount, reason) => {
    // The rule reads the payable total: an order of amount - 1000 plus 1000 tax.
    const split = await post(sandbox, SALE, saleBody(sandbox, { amount: total(amount - 1000, 1000) }));
    expect(split.json.data).toMatchObject({ transactionStatus: 'F', reason: { code: reason } });
    const whole = await post(sandbox, SALE, saleBody(sandbox, { amount: total(amount) }));
    expect(whole.json.code).toBe('0');
    expect(whole.json.data.transactionStatus).toBe('F');
  });

  it('an order amount of 8888 with tax on top is not the sandbox amount', async () => {
    const answer = await post(sandbox, SALE, saleBody(sandbox, { amount: total(8888, 100) }));
    expect(answer.json.data.transactionStatus).toBe('S');
  });

  it('a token needing additional 3DS is declined as high risk with F', async () => {
    const answer = await post(sandbox, SALE, saleBody(sandbox, { cardEncryptedData: sandbox.mintWalletToken({ additional3dsRequired: true }) }));
    expect(answer.json.code).toBe('0');
    expect(answer.json.data).toMatchObject({ transactionStatus: 'F', reason: { code: 'ADDITIONAL_3DS_REQUIRED' } });
  });

  it('a repeated transactionRequestId answers the first result and never charges twice', async () => {
    const body = saleBody(sandbox);
    const first = await post(sandbox, SALE, body);
    const again = await post(sandbox, SALE, { ...body, amount: total(8888) });
    expect(again.json.data).toEqual(first.json.data);
    expect(again.json.traceId).not.toBe(first.json.traceId);
    expect(sandbox.charges().filter((charge) => charge.transactionRequestId === body.transactionRequestId)).toHaveLength(1);
  });

  it('I01: a transactionRequestId already used by a create-session request', async () => {
    const session = sessionBody(sandbox);
    expect((await post(sandbox, '/v1/checkout/create-session', session)).json.code).toBe('0');
    const answer = await post(sandbox, SALE, saleBody(sandbox, { transactionRequestId: session.transactionRequestId }));
    expect([answer.status, answer.json.code]).toEqual([409, 'I01']);
  });
});

describe('wallet token rules', () => {
  const refused = async (cardEncryptedData: string, code: string) => {
    const answer = await post(sandbox, SALE, saleBody(sandbox, { cardEncryptedData }));
    expect([answer.status, answer.json.code]).toEqual([400, code]);
    expect(answer.text).not.toContain(cardEncryptedData);
    return answer;
  };

  it.each([
    ['not JSON', 'tok_visa'],
    ['a JSON array', '[]'],
    ['missing signature', JSON.stringify({ protocolVersion: 'ECv2', signedMessage: '{}' })],
    ['another protocol version', JSON.stringify({ protocolVersion: 'ECv1', signature: 'AA==', signedMessage: '{}' })],
  ])('W01: %s', async (_label, token) => {
    await refused(token, 'W01');
  });

  it('W02: an altered signedMessage', async () => {
    const token = JSON.parse(sandbox.mintWalletToken()) as { signedMessage: string };
    const message = JSON.parse(token.signedMessage) as { encryptedMessage: string };
    message.encryptedMessage = Buffer.from('{"gatewayMerchantId":"x"}').toString('base64');
    await refused(JSON.stringify({ ...token, signedMessage: JSON.stringify(message) }), 'W02');
  });

  it('W02: a token signed by someone else', async () => {
    const token = JSON.parse(sandbox.mintWalletToken()) as { signedMessage: string };
    const forged = createHmac('sha256', 'guess').update(`ECv2\n${token.signedMessage}`).digest('base64');
    await refused(JSON.stringify({ ...token, signature: forged }), 'W02');
  });

  it('W02: a token minted by another sandbox', async () => {
    const other = await startSandbox({ credentials: { merchantId: sandbox.merchantId, gatewayId: sandbox.gatewayId } });
    try {
      await refused(other.mintWalletToken(), 'W02');
    } finally {
      await other.close();
    }
  });

  it('W03: a token for another merchant or gateway', async () => {
    await refused(sandbox.mintWalletToken({ gatewayMerchantId: 'mch_someone_else' }), 'W03');
    await refused(sandbox.mintWalletToken({ gatewayId: 'othergateway' }), 'W03');
  });

  it('W04: PAN_ONLY is refused and nothing is charged', async () => {
    const before = sandbox.charges().length;
    const answer = await refused(sandbox.mintWalletToken({ authMethod: 'PAN_ONLY' }), 'W04');
    expect(answer.json.msg).toContain('CRYPTOGRAM_3DS');
    expect(sandbox.charges()).toHaveLength(before);
  });

  it('W05: an expired token (service time)', async () => {
    const token = sandbox.mintWalletToken({ expiresInMs: 60_000 });
    sandbox.clock.advance(61_000);
    try {
      const answer = await post(sandbox, SALE, saleBody(sandbox, { cardEncryptedData: token }), { 'x-timestamp': String(sandbox.clock.now()) });
      expect(answer.json.code).toBe('W05');
    } finally {
      sandbox.clock.advance(-61_000);
    }
  });
});

describe('direct payment webhook', () => {
  it('follows the answer to notifyUrl, signed with the webhook secret', async () => {
    const body = saleBody(sandbox, { notifyUrl: receiver.url });
    const answer = await post(sandbox, SALE, body);
    await sandbox.waitForDeliveries();
    const hook = receiver.received.find((r) => r.rawBody.includes(String(body.referenceOrderId)));
    expect(hook).toBeDefined();
    const expected = createHmac('sha256', sandbox.webhookSecret).update(hook?.rawBody ?? '').digest('hex');
    expect(hook?.headers['x-signature']).toBe(expected);
    expect(hook?.headers['x-timestamp']).toMatch(/^[0-9]{13}$/);
    expect(JSON.parse(hook?.rawBody ?? '{}')).toMatchObject({
      transactionId: answer.json.data.transactionId,
      transactionRequestId: body.transactionRequestId,
      referenceOrderId: body.referenceOrderId,
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 2500, taxAmount: 0, surchargeAmount: 0, priceCurrency: 'USD' },
    });
    expect(hook?.rawBody).not.toContain(String(body.cardEncryptedData));
  });

  it('without notifyUrl nothing is sent', async () => {
    const before = sandbox.deliveries().length;
    await post(sandbox, SALE, saleBody(sandbox));
    expect(sandbox.deliveries()).toHaveLength(before);
  });

  it('a repeated transactionRequestId sends no second webhook', async () => {
    const body = saleBody(sandbox, { notifyUrl: receiver.url });
    await post(sandbox, SALE, body);
    await post(sandbox, SALE, body);
    await sandbox.waitForDeliveries();
    expect(sandbox.deliveries().filter((d) => d.payload.transactionRequestId === body.transactionRequestId)).toHaveLength(1);
  });
});
