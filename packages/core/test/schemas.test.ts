import { describe, expect, it } from 'vitest';
import {
  amountSchema,
  checkoutSessionRequestSchema,
  createCheckoutSessionRequestSchema,
  createDirectPaymentRequestSchema,
  createRefundRequestSchema,
  directPaymentRequestSchema,
  expireCheckoutSessionRequestSchema,
  refundAmountSchema,
  refundRequestSchema,
  responseEnvelopeSchema,
  terminalSaleRequestSchema,
  transactionQuerySchema,
  validate,
} from '../src/entries/schemas';
import { PaymentValidationError, type ValidationIssue } from '../src';

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
    expect(rulesOf(checkoutSessionRequestSchema, { ...validCheckout, notifyURL: 'https://x.example.com' })).toEqual(['notifyURL:unknown_field']);
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

  it('takes the vendor\'s optional fields: productList, customer, addresses, merchantReturnUrl', () => {
    const full = {
      ...validDirect,
      productList: [{ name: 'Teapot', amount: 1999, num: 1 }],
      customerEmail: 'ada@example.com',
      customerName: 'Ada Lovelace',
      billingAddress: { line1: '1 Main St', line2: 'Apt 2', city: 'Springfield', state: 'IL', postalCode: '62701', countryCode: 'US' },
      shippingAddress: { line1: '1 Main St', countryCode: 'US' },
      merchantReturnUrl: 'https://shop.example.com/orders/2002',
    };
    expect(validate(directPaymentRequestSchema, full, 'request')).toEqual(full);
  });

  it('checks the optional fields: the checkout productList sum, email, address parts, merchantReturnUrl', () => {
    expect(
      rulesOf(directPaymentRequestSchema, {
        ...validDirect,
        productList: [{ name: 'Teapot', amount: 1000, num: 1 }],
        customerEmail: 'not-an-email',
        customerName: '',
        billingAddress: { line1: '', postalCode: '62701#', countryCode: 'usa', province: 'x' },
        shippingAddress: { city: 'c'.repeat(65) },
        merchantReturnUrl: 'http://shop.example.com/orders/2002',
      }),
    ).toEqual([
      'customerEmail:email',
      'customerName:min_length',
      'billingAddress.line1:min_length',
      'billingAddress.postalCode:pattern',
      'billingAddress.countryCode:pattern',
      'billingAddress.province:unknown_field',
      'shippingAddress.city:max_length',
      'merchantReturnUrl:public_https',
      'productList:product_list_sum',
    ]);
  });

  it('never quotes the token in its messages', () => {
    const token = 'secret-wallet-token-value';
    const issues = issuesOf(createDirectPaymentRequestSchema(), { ...validDirect, cardEncryptedData: token, paymentMethod: 'X' });
    expect(JSON.stringify(issues)).not.toContain(token);
  });
});

describe('refund request', () => {
  const validRefund = {
    appId: 'app_123',
    merchantId: 'merchant_456',
    transactionRequestId: 'r'.repeat(64),
    originalTransactionId: 'txn_0123456789abcdef',
    amount: { priceCurrency: 'USD', totalAmount: 1300, orderAmount: 1000, taxAmount: 100, surchargeAmount: 50, tipAmount: 150 },
    description: 'Returned one mug',
    attach: '{"reason":"damaged"}',
    notifyUrl: 'https://shop.example.com/webhook',
  };

  it('accepts the vendor\'s fields, a 64-character transactionRequestId, and no amount (the whole balance)', () => {
    expect(validate(refundRequestSchema, validRefund, 'request')).toEqual(validRefund);
    const { amount: _amount, originalTransactionId: _id, ...byRequestId } = validRefund;
    expect(rulesOf(refundRequestSchema, { ...byRequestId, originalTransactionRequestId: 'pay_req-1' })).toEqual([]);
  });

  it('needs exactly one of the two ids of the payment', () => {
    const { originalTransactionId: _id, ...neither } = validRefund;
    expect(issuesOf(refundRequestSchema, neither)).toEqual([
      {
        path: 'originalTransactionId',
        rule: 'one_required',
        message: 'originalTransactionId or originalTransactionRequestId is required: the payment to refund',
      },
    ]);
    expect(rulesOf(refundRequestSchema, { ...validRefund, originalTransactionRequestId: 'pay_req-1' })).toEqual([
      'originalTransactionRequestId:only_one',
    ]);
  });

  it.each([
    ['transactionRequestId', 't'.repeat(65), 'transactionRequestId:max_length'],
    ['transactionRequestId', 'no spaces', 'transactionRequestId:pattern'],
    ['originalTransactionId', '', 'originalTransactionId:min_length'],
    ['description', 'd'.repeat(129), 'description:max_length'],
    ['attach', 'a'.repeat(513), 'attach:max_length'],
    ['notifyUrl', 'http://shop.example.com/webhook', 'notifyUrl:public_https'],
    ['notifyUrl', 'https://10.0.0.8/webhook', 'notifyUrl:public_https'],
    ['reason', 'typo', 'reason:unknown_field'],
  ])('%s = %j breaks %s', (field, value, expected) => {
    expect(rulesOf(refundRequestSchema, { ...validRefund, [field]: value })).toEqual([expected]);
  });

  it('allows a local notifyUrl only in local development', () => {
    const local = { ...validRefund, notifyUrl: 'http://127.0.0.1:4000/webhook' };
    expect(rulesOf(createRefundRequestSchema({ localDevelopment: true }), local)).toEqual([]);
  });

  it('reports the ids beside other broken fields', () => {
    expect(rulesOf(refundRequestSchema, { ...validRefund, originalTransactionRequestId: 'pay_req-1', description: '' })).toEqual([
      'description:min_length',
      'originalTransactionRequestId:only_one',
    ]);
  });

  it('refuses a decimal amount with a message about minor units', () => {
    const issues = issuesOf(refundRequestSchema, { ...validRefund, amount: { priceCurrency: 'USD', orderAmount: 12.5 } });
    expect(issues).toEqual([{ path: 'amount.orderAmount', rule: 'integer_minor_units', message: expect.stringMatching(/toMinorUnits/) }]);
  });
});

describe('refund amount', () => {
  it.each([
    [{ priceCurrency: 'USD', orderAmount: 500 }, []],
    [{ priceCurrency: 'USD', orderAmount: 500, totalAmount: 500 }, []],
    [{ priceCurrency: 'USD', taxAmount: 20, tipAmount: 30, totalAmount: 50 }, []],
    [{ priceCurrency: 'USD', orderAmount: 500, taxAmount: 50, totalAmount: 500 }, ['totalAmount:total_amount_sum']],
    // totalAmount is checked against the parts, never a substitute for them.
    [{ priceCurrency: 'USD', totalAmount: 500 }, ['totalAmount:total_amount_sum', 'orderAmount:positive_total']],
    [{ priceCurrency: 'USD' }, ['orderAmount:positive_total']],
    [{ priceCurrency: 'USD', orderAmount: 0, totalAmount: 0 }, ['orderAmount:positive_total']],
    [{ priceCurrency: 'USD', orderAmount: 12.5 }, ['orderAmount:integer_minor_units']],
    [{ priceCurrency: 'USD', orderAmount: -1 }, ['orderAmount:non_negative']],
    [{ orderAmount: 500 }, ['priceCurrency:required']],
    [{ priceCurrency: 'usd', orderAmount: 500 }, ['priceCurrency:iso_4217']],
    [{ priceCurrency: 'USD', orderAmount: 500, cashbackAmount: 1 }, ['cashbackAmount:unknown_field']],
  ] as const)('%j → %j', (amount, expected) => {
    expect(rulesOf(refundAmountSchema, amount)).toEqual(expected);
  });
});

describe('transaction query', () => {
  const account = { appId: 'app_123', merchantId: 'merchant_456' };

  it('takes one of transactionId or a transactionRequestId of up to 64 characters', () => {
    expect(rulesOf(transactionQuerySchema, { ...account, transactionId: 'txn_1' })).toEqual([]);
    expect(rulesOf(transactionQuerySchema, { ...account, transactionRequestId: 'r'.repeat(64) })).toEqual([]);
    expect(rulesOf(transactionQuerySchema, { ...account, transactionRequestId: 'r'.repeat(65) })).toEqual([
      'transactionRequestId:max_length',
    ]);
  });

  it('refuses neither and both', () => {
    expect(rulesOf(transactionQuerySchema, account)).toEqual(['transactionId:one_required']);
    expect(rulesOf(transactionQuerySchema, { ...account, transactionId: 'txn_1', transactionRequestId: 'req_1' })).toEqual([
      'transactionRequestId:only_one',
    ]);
  });
});

describe('expire checkout session request', () => {
  const account = { appId: 'app_123', merchantId: 'merchant_456' };

  it('needs a sessionId; reason is optional', () => {
    expect(rulesOf(expireCheckoutSessionRequestSchema, { ...account, sessionId: 'cs_1', reason: 'abandoned' })).toEqual([]);
    expect(rulesOf(expireCheckoutSessionRequestSchema, { ...account, sessionId: '' })).toEqual(['sessionId:min_length']);
    expect(rulesOf(expireCheckoutSessionRequestSchema, account)).toEqual(['sessionId:required']);
    expect(rulesOf(expireCheckoutSessionRequestSchema, { ...account, sessionId: 's'.repeat(64), reason: 'r'.repeat(256) })).toEqual([]);
    expect(rulesOf(expireCheckoutSessionRequestSchema, { ...account, sessionId: 's'.repeat(65), reason: '' })).toEqual([
      'sessionId:max_length',
      'reason:min_length',
    ]);
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
