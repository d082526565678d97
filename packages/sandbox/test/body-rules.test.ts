import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyExponents } from '@paymount/core/internal';
import { startSandbox, type Sandbox } from '../src/index';
import { post, saleBody, sessionBody } from './helpers';

const SESSION = '/v1/checkout/create-session';
const SALE = '/v1/checkout/sale';
const TERMINAL = '/v1/semi-integration/transaction/sale';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

function without(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[field];
  return copy;
}

async function expectRefused(path: string, body: unknown, code: string, field: string) {
  const answer = await post(sandbox, path, body);
  expect(answer.status).toBe(400);
  expect(answer.json.code).toBe(code);
  expect(answer.json.msg).toContain(field);
  return answer;
}

describe('create-session body rules', () => {
  it.each(['appId', 'transactionRequestId', 'referenceOrderId', 'merchantId', 'amount', 'description'])(
    'V01: %s is required',
    async (field) => {
      await expectRefused(SESSION, without(sessionBody(sandbox), field), 'V01', field);
    },
  );

  it.each([
    ['amount.orderAmount', { amount: { priceCurrency: 'USD' } }],
    ['amount.priceCurrency', { amount: { orderAmount: 100 } }],
  ])('V01: %s is required', async (field, overrides) => {
    await expectRefused(SESSION, sessionBody(sandbox, { ...overrides, productList: undefined }), 'V01', field);
  });

  it.each([
    ['description', { description: 42 }],
    ['collectBillingAddress', { collectBillingAddress: 'yes' }],
    ['productList', { productList: {} }],
    ['amount', { amount: 'USD 25.00' }],
  ])('V02: %s of the wrong type', async (field, overrides) => {
    await expectRefused(SESSION, sessionBody(sandbox, overrides), 'V02', field);
  });

  it.each([
    ['appId', { appId: 'a'.repeat(33) }],
    ['merchantId', { merchantId: 'm'.repeat(33) }],
    ['transactionRequestId', { transactionRequestId: 't'.repeat(33) }],
    ['referenceOrderId', { referenceOrderId: 'short' }],
    ['referenceOrderId', { referenceOrderId: 'o'.repeat(33) }],
    ['description', { description: 'd'.repeat(129) }],
    ['description', { description: '' }],
    ['merchantReturnUrl', { merchantReturnUrl: `https://shop.example.com/${'r'.repeat(240)}` }],
    ['notifyUrl', { notifyUrl: `https://shop.example.com/${'n'.repeat(190)}` }],
  ])('V03: %s length', async (field, overrides) => {
    await expectRefused(SESSION, sessionBody(sandbox, overrides), 'V03', field);
  });

  it('accepts the limits themselves', async () => {
    const answer = await post(
      sandbox,
      SESSION,
      sessionBody(sandbox, {
        transactionRequestId: `T${'t'.repeat(31)}`,
        referenceOrderId: `o|*-_${'9'.repeat(27)}`,
        description: 'd'.repeat(128),
        merchantReturnUrl: `https://shop.example.com/${'r'.repeat(256 - 25)}`,
      }),
    );
    expect(answer.json.code).toBe('0');
  });

  it.each([
    ['transactionRequestId', { transactionRequestId: 'has space' }],
    ['transactionRequestId', { transactionRequestId: 'pipe|not-allowed' }],
    ['referenceOrderId', { referenceOrderId: 'order#123' }],
  ])('V04: %s pattern', async (field, overrides) => {
    await expectRefused(SESSION, sessionBody(sandbox, overrides), 'V04', field);
  });

  it.each([
    ['amount.orderAmount', { orderAmount: 25.5, priceCurrency: 'USD' }],
    ['amount.orderAmount', { orderAmount: '2500', priceCurrency: 'USD' }],
    ['amount.taxAmount', { orderAmount: 2500, taxAmount: -1, priceCurrency: 'USD' }],
    ['amount.surchargeAmount', { orderAmount: 2500, surchargeAmount: 0.5, priceCurrency: 'USD' }],
  ])('V05: %s must be a non-negative integer in minor units', async (field, amount) => {
    await expectRefused(SESSION, sessionBody(sandbox, { amount, productList: undefined }), 'V05', field);
  });

  it('V05: a line item quantity of 0', async () => {
    await expectRefused(
      SESSION,
      sessionBody(sandbox, { amount: { orderAmount: 0, taxAmount: 1, priceCurrency: 'USD' }, productList: [{ name: 'Mug', amount: 1250, num: 0 }] }),
      'V05',
      'productList[0].num',
    );
  });

  it('V06: payable total must be greater than 0', async () => {
    await expectRefused(SESSION, sessionBody(sandbox, { amount: { orderAmount: 0, priceCurrency: 'USD' }, productList: undefined }), 'V06', 'amount');
  });

  it.each(['usd', 'XYZ', 'US', 'XAU', 'XXX', 'DEM', 'BGN'])('V07: priceCurrency %s', async (priceCurrency) => {
    await expectRefused(SESSION, sessionBody(sandbox, { amount: { orderAmount: 2500, priceCurrency }, productList: undefined }), 'V07', 'amount.priceCurrency');
  });

  it('accepts every currency of the table @paymount/core validates with', async () => {
    // 164 calls in a row: past the default rate limit, which is not under test here.
    const unlimited = await startSandbox({ rateLimit: false });
    try {
      for (const priceCurrency of currencyExponents.keys()) {
        const answer = await post(unlimited, SESSION, sessionBody(unlimited, { amount: { orderAmount: 2500, priceCurrency }, productList: undefined }));
        expect({ priceCurrency, code: answer.json.code }).toEqual({ priceCurrency, code: '0' });
      }
    } finally {
      await unlimited.close();
    }
  });

  it('V08: productList must add up to orderAmount', async () => {
    const answer = await expectRefused(
      SESSION,
      sessionBody(sandbox, { productList: [{ name: 'Mug', amount: 1250, num: 3 }] }),
      'V08',
      'productList',
    );
    expect(answer.json.msg).toContain('3750');
  });

  it.each([
    ['merchantReturnUrl', { merchantReturnUrl: 'not a url' }],
    ['merchantReturnUrl', { merchantReturnUrl: 'ftp://shop.example.com/back' }],
    ['notifyUrl', { notifyUrl: 'javascript:alert(1)' }],
  ])('V09: %s must be an absolute http(s) URL', async (field, overrides) => {
    await expectRefused(SESSION, sessionBody(sandbox, overrides), 'V09', field);
  });

  it.each([
    'http://shop.example.com/webhook',
    'https://localhost/webhook',
    'https://127.0.0.1/webhook',
    'https://10.0.0.5/webhook',
    'https://192.168.1.10/webhook',
    'https://[::1]/webhook',
    'https://printer.local/webhook',
    'https://intranet/webhook',
  ])('V10: notifyUrl %s is not public HTTPS', async (notifyUrl) => {
    await expectRefused(SESSION, sessionBody(sandbox, { notifyUrl }), 'V10', 'notifyUrl');
  });

  it('accepts a public HTTPS notifyUrl without sending anything before a payment', async () => {
    const answer = await post(sandbox, SESSION, sessionBody(sandbox, { notifyUrl: 'https://shop.example.com/payments/webhook' }));
    expect(answer.json.code).toBe('0');
  });

  it('lists every broken rule in data.issues', async () => {
    const answer = await post(sandbox, SESSION, sessionBody(sandbox, { appId: undefined, description: 'd'.repeat(200), referenceOrderId: 'x' }));
    const issues = answer.json.data.issues as Array<{ field: string; code: string }>;
    expect(issues.map((issue) => `${issue.field}:${issue.code}`).sort()).toEqual(['appId:V01', 'description:V03', 'referenceOrderId:V03']);
  });

  it('B01 / B02: an appId or merchantId this sandbox does not know', async () => {
    const app = await post(sandbox, SESSION, sessionBody(sandbox, { appId: 'app_unknown' }));
    expect([app.status, app.json.code]).toEqual([403, 'B01']);
    const merchant = await post(sandbox, SESSION, sessionBody(sandbox, { merchantId: 'mch_unknown' }));
    expect([merchant.status, merchant.json.code]).toEqual([403, 'B02']);
  });
});

describe('direct payment body rules', () => {
  it.each(['appId', 'merchantId', 'transactionRequestId', 'referenceOrderId', 'amount', 'paymentMethod', 'cardEncryptedData'])(
    'V01: %s is required',
    async (field) => {
      await expectRefused(SALE, without(saleBody(sandbox), field), 'V01', field);
    },
  );

  it('V11: paymentMethod must be WALLET_PAY', async () => {
    await expectRefused(SALE, saleBody(sandbox, { paymentMethod: 'CARD' }), 'V11', 'paymentMethod');
  });

  it('V10: notifyUrl must be public HTTPS here too, and the refusal names the local fix', async () => {
    const answer = await expectRefused(SALE, saleBody(sandbox, { notifyUrl: 'http://127.0.0.1:9/webhook' }), 'V10', 'notifyUrl');
    expect(answer.json.msg).toContain('`startSandbox({ allowLocalNotifyUrl: true })`');
  });

  it('description and notifyUrl are optional', async () => {
    const answer = await post(sandbox, SALE, without(saleBody(sandbox), 'description'));
    expect(answer.json.code).toBe('0');
  });
});

describe('terminal sale body rules', () => {
  const terminal = (overrides: Record<string, unknown> = {}) => ({
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    transactionRequestId: `term_${Math.random().toString(36).slice(2)}`,
    amount: 1200,
    priceCurrency: 'EUR',
    ...overrides,
  });

  it('charges a valid sale', async () => {
    const answer = await post(sandbox, TERMINAL, terminal());
    expect(answer.json.code).toBe('0');
    expect(answer.json.data.transactionStatus).toBe('S');
  });

  it.each([
    ['amount', { amount: undefined }, 'V01'],
    ['priceCurrency', { priceCurrency: undefined }, 'V01'],
    ['amount', { amount: 12.5 }, 'V05'],
    ['amount', { amount: 0 }, 'V05'],
    ['priceCurrency', { priceCurrency: 'EURO' }, 'V07'],
  ])('%s rule', async (field, overrides, code) => {
    await expectRefused(TERMINAL, terminal(overrides), code, field);
  });
});
