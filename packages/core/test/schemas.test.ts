import { describe, expect, it } from 'vitest';
import {
  amountSchema,
  checkoutSessionRequestSchema,
  createCheckoutSessionRequestSchema,
  createDirectPaymentRequestSchema,
  directPaymentRequestSchema,
  PaymentValidationError,
  responseEnvelopeSchema,
  terminalSaleRequestSchema,
  validate,
  type ValidationIssue,
} from '../src';

const validCheckout = {
  appId: 'app_123',
  transactionRequestId: 'req_0001-A',
  referenceOrderId: 'ord|2024*01',
  merchantId: 'merchant_456',
  amount: { orderAmount: 2500, taxAmount: 200, surchargeAmount: 0, priceCurrency: 'USD' },
  description: 'Two mugs',
  productList: [
    { name: 'Mug', amount: 1000, num: 2 },
    { name: 'Lid', amount: 500, num: 1 },
  ],
  collectBillingAddress: true,
  collectShippingAddress: false,
  merchantReturnUrl: 'https://shop.example.com/return',
  notifyUrl: 'https://shop.example.com/webhook',
};

function issuesOf(schema: Parameters<typeof validate>[0], value: unknown): ValidationIssue[] {
  try {
    validate(schema, value, 'request');
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentValidationError);
    return [...(error as PaymentValidationError).issues];
  }
  return [];
}

const rulesOf = (schema: Parameters<typeof validate>[0], value: unknown) =>
  issuesOf(schema, value).map((issue) => `${issue.path}:${issue.rule}`);

describe('checkout session request', () => {
  it('accepts a body that follows every rule', () => {
    expect(validate(checkoutSessionRequestSchema, validCheckout, 'request')).toEqual(validCheckout);
  });

  it.each([
    ['appId', 'a'.repeat(33), 'appId:max_length'],
    ['appId', '', 'appId:min_length'],
    ['merchantId', 'm'.repeat(33), 'merchantId:max_length'],
    ['transactionRequestId', 't'.repeat(33), 'transactionRequestId:max_length'],
    ['transactionRequestId', 'has space', 'transactionRequestId:pattern'],
    ['transactionRequestId', 'pipe|not-allowed', 'transactionRequestId:pattern'],
    ['referenceOrderId', 'abc12', 'referenceOrderId:min_length'],
    ['referenceOrderId', 'r'.repeat(33), 'referenceOrderId:max_length'],
    ['referenceOrderId', 'order#1234', 'referenceOrderId:pattern'],
    ['description', 'd'.repeat(129), 'description:max_length'],
    ['description', '', 'description:min_length'],
    ['collectBillingAddress', 'yes', 'collectBillingAddress:type'],
    ['merchantReturnUrl', `https://shop.example.com/${'r'.repeat(240)}`, 'merchantReturnUrl:max_length'],
    ['merchantReturnUrl', '/relative/path', 'merchantReturnUrl:url'],
    ['notifyUrl', `https://shop.example.com/${'n'.repeat(180)}`, 'notifyUrl:max_length'],
    ['notifyUrl', 'ftp://shop.example.com/hook', 'notifyUrl:url'],
    ['notifyUrl', 'http://shop.example.com/hook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://127.0.0.1/hook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://localhost:3000/hook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://10.1.2.3/hook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://printer.local/hook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://[::1]/hook', 'notifyUrl:public_https'],
    ['merchantReturnUrl', 'https://192.168.1.10/return', 'merchantReturnUrl:public_https'],
  ])('%s = %j breaks %s', (field, value, expected) => {
    expect(rulesOf(checkoutSessionRequestSchema, { ...validCheckout, [field]: value })).toEqual([expected]);
  });

  it('keeps the limits inclusive', () => {
    const atLimits = {
      ...validCheckout,
      appId: 'a'.repeat(32),
      transactionRequestId: 't'.repeat(32),
      referenceOrderId: 'r'.repeat(6),
      description: 'd'.repeat(128),
      notifyUrl: `https://shop.example.com/${'n'.repeat(200 - 25)}`,
    };
    expect(atLimits.notifyUrl).toHaveLength(200);
    expect(rulesOf(checkoutSessionRequestSchema, atLimits)).toEqual([]);
  });

  it('names every missing required field', () => {
    expect(rulesOf(checkoutSessionRequestSchema, {})).toEqual([
      'appId:required',
      'transactionRequestId:required',
      'referenceOrderId:required',
      'merchantId:required',
      'amount:required',
      'description:required',
    ]);
  });

  it('refuses unknown fields, so a misspelt one is not dropped silently', () => {
    expect(rulesOf(checkoutSessionRequestSchema, { ...validCheckout, notifyURL: 'https://x.example.com' })).toEqual([':unknown_field']);
  });

  it('refuses a decimal amount with a message about minor units', () => {
    const issues = issuesOf(checkoutSessionRequestSchema, { ...validCheckout, amount: { orderAmount: 12.5, priceCurrency: 'USD' }, productList: undefined });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: 'amount.orderAmount', rule: 'integer_minor_units' });
    expect(issues[0]?.message).toMatch(/minor units/);
    expect(issues[0]?.message).toMatch(/toMinorUnits/);
  });

  it('checks the productList sum against orderAmount, alongside other issues', () => {
    expect(
      rulesOf(checkoutSessionRequestSchema, {
        ...validCheckout,
        description: '',
        productList: [{ name: 'Mug', amount: 1000, num: 2 }],
      }),
    ).toEqual(['description:min_length', 'productList:product_list_sum']);
  });

  it('checks each product line', () => {
    expect(
      rulesOf(checkoutSessionRequestSchema, {
        ...validCheckout,
        productList: [
          { name: '', amount: 10.5, num: 0 },
          { name: 'Lid', amount: 500, num: 1.5 },
        ],
      }),
    ).toEqual(['productList.0.amount:integer_minor_units', 'productList.0.name:min_length', 'productList.0.num:min', 'productList.1.num:integer']);
    expect(rulesOf(checkoutSessionRequestSchema, { ...validCheckout, productList: [] })).toEqual(['productList:min_items']);
  });

  it('allows non-public and plain-HTTP callback URLs only in local development', () => {
    const local = { ...validCheckout, notifyUrl: 'http://127.0.0.1:4000/webhook', merchantReturnUrl: 'http://localhost:4000/done' };
    expect(rulesOf(checkoutSessionRequestSchema, local)).toEqual(['merchantReturnUrl:public_https', 'notifyUrl:public_https']);
    expect(rulesOf(createCheckoutSessionRequestSchema({ localDevelopment: true }), local)).toEqual([]);
    expect(rulesOf(createCheckoutSessionRequestSchema({ localDevelopment: true }), { ...local, notifyUrl: 'not a url' })).toEqual([
      'notifyUrl:url',
    ]);
  });
});

describe('amount', () => {
  it.each([
    [{ orderAmount: 100, priceCurrency: 'USD' }, []],
    [{ orderAmount: 0, taxAmount: 5, priceCurrency: 'USD' }, []],
    [{ orderAmount: 0, priceCurrency: 'USD' }, ['orderAmount:positive_total']],
    [{ orderAmount: -1, priceCurrency: 'USD' }, ['orderAmount:non_negative']],
    [{ orderAmount: 1, taxAmount: 0.5, priceCurrency: 'USD' }, ['taxAmount:integer_minor_units']],
    [{ orderAmount: 1, surchargeAmount: -2, priceCurrency: 'USD' }, ['surchargeAmount:non_negative']],
    [{ orderAmount: 2 ** 53, priceCurrency: 'USD' }, ['orderAmount:safe_integer']],
    [{ orderAmount: '100', priceCurrency: 'USD' }, ['orderAmount:type']],
    [{ orderAmount: 100, priceCurrency: 'usd' }, ['priceCurrency:iso_4217']],
    [{ orderAmount: 100, priceCurrency: 'ABC' }, ['priceCurrency:iso_4217']],
    [{ orderAmount: 100 }, ['priceCurrency:required']],
  ] as const)('%j → %j', (amount, expected) => {
    expect(rulesOf(amountSchema, amount)).toEqual(expected);
  });
});

describe('direct payment request', () => {
  const validDirect = {
    appId: 'app_123',
    merchantId: 'merchant_456',
    transactionRequestId: 'req_1',
    referenceOrderId: 'order-2002',
    description: 'A teapot',
    amount: { orderAmount: 1999, priceCurrency: 'EUR' },
    paymentMethod: 'WALLET_PAY',
    cardEncryptedData: '{"signature":"x","protocolVersion":"ECv2","signedMessage":"{}"}',
    notifyUrl: 'https://shop.example.com/webhook',
  };

  it('accepts a valid body', () => {
    expect(rulesOf(directPaymentRequestSchema, validDirect)).toEqual([]);
  });

  it('applies the shared field rules, WALLET_PAY and a non-empty token', () => {
    expect(
      rulesOf(directPaymentRequestSchema, {
        ...validDirect,
        referenceOrderId: 'x',
        paymentMethod: 'CARD',
        cardEncryptedData: '',
        notifyUrl: 'https://169.254.169.254/latest',
      }),
    ).toEqual(['referenceOrderId:min_length', 'paymentMethod:one_of', 'cardEncryptedData:min_length', 'notifyUrl:public_https']);
    expect(rulesOf(directPaymentRequestSchema, { ...validDirect, cardEncryptedData: { token: 1 } })).toEqual(['cardEncryptedData:type']);
  });

  it('never quotes the token in its messages', () => {
    const token = 'secret-wallet-token-value';
    const issues = issuesOf(createDirectPaymentRequestSchema(), { ...validDirect, cardEncryptedData: token, paymentMethod: 'X' });
    expect(JSON.stringify(issues)).not.toContain(token);
  });
});

describe('terminal sale request', () => {
  it('needs amount and priceCurrency, and passes other fields through', () => {
    const body = { appId: 'a', merchantId: 'm', transactionRequestId: 't1', amount: 100, priceCurrency: 'USD', terminalId: 'T1' };
    expect(validate(terminalSaleRequestSchema, body, 'request')).toEqual(body);
    expect(rulesOf(terminalSaleRequestSchema, { ...body, amount: 1.25, priceCurrency: 'XX' })).toEqual([
      'amount:integer_minor_units',
      'priceCurrency:iso_4217',
    ]);
    expect(rulesOf(terminalSaleRequestSchema, { ...body, amount: 0 })).toEqual(['amount:positive_total']);
  });
});

describe('response envelope', () => {
  it('requires code and traceId; data and msg are optional on errors', () => {
    expect(responseEnvelopeSchema.safeParse({ code: '0', traceId: 't', data: {} }).success).toBe(true);
    expect(responseEnvelopeSchema.safeParse({ code: 'E1', traceId: 't', msg: 'no' }).success).toBe(true);
    expect(responseEnvelopeSchema.safeParse({ code: 0, traceId: 't', data: {} }).success).toBe(false);
    expect(responseEnvelopeSchema.safeParse({ code: '0', data: {} }).success).toBe(false);
  });
});
