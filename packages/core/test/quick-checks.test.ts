import { describe, expect, it } from 'vitest';
import { isEnvelope } from '../src/client/response';
import { isCheckoutSessionData, isRefundData, isTransactionData } from '../src/client/answer-checks';
import { refundDataSchema, sessionDataSchema, transactionDataSchema } from '../src/client/answer-schemas';
import { createCheckoutSessionRequestSchema } from '../src/schemas/checkout-session';
import { responseEnvelopeSchema } from '../src/schemas/envelope';
import { checkoutSessionQuickCheck, refundQuickCheck, transactionQueryQuickCheck, type QuickCheck } from '../src/schemas/quick-checks';
import { createRefundRequestSchema } from '../src/schemas/refund';
import { transactionQuerySchema } from '../src/schemas/transaction-query';
import type { z } from 'zod';

/** Every variant of `base` with one field replaced by one of `values` (undefined removes it). */
function variants(base: Record<string, unknown>, values: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  return Object.entries(values).flatMap(([key, replacements]) =>
    replacements.map((value) => {
      const copy = { ...base };
      if (value === undefined) delete copy[key];
      else copy[key] = value;
      return copy;
    }),
  );
}

const BAD_STRINGS = [undefined, '', 7, null, 'x'.repeat(33), 'has space', 'ünïcode', ['a']];

const session = {
  appId: 'app_1',
  merchantId: 'mch_1',
  transactionRequestId: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  referenceOrderId: 'order-0001',
  amount: { orderAmount: 1250, priceCurrency: 'USD' },
  description: 'Order 0001',
  notifyUrl: 'https://shop.example.com/payments/webhook',
};

const sessionVariants = [
  session,
  ...variants(session, {
    appId: BAD_STRINGS,
    merchantId: BAD_STRINGS,
    transactionRequestId: [...BAD_STRINGS, 'a|b'],
    referenceOrderId: [...BAD_STRINGS, 'short', 'order|*1', 'x'.repeat(32)],
    description: [...BAD_STRINGS, 'x'.repeat(128), 'x'.repeat(129)],
    notifyUrl: ['http://shop.example.com/hook', 'https://127.0.0.1/hook', 'https://localhost/hook', 'not a url', 'ftp://shop.example.com', `https://shop.example.com/${'x'.repeat(200)}`, 5],
    merchantReturnUrl: ['https://shop.example.com/done', 'http://localhost:3000/done', 'nope'],
    productList: [[{ amount: 1250, name: 'Tea', num: 1 }], [{ amount: 1, name: 'Tea', num: 1 }], []],
    collectBillingAddress: [true, 'yes'],
    unknownField: ['x'],
    amount: [
      undefined,
      null,
      [],
      { orderAmount: 0, priceCurrency: 'USD' },
      { orderAmount: 0, taxAmount: 5, priceCurrency: 'USD' },
      { orderAmount: 12.5, priceCurrency: 'USD' },
      { orderAmount: -1, priceCurrency: 'USD' },
      { orderAmount: 2 ** 53, priceCurrency: 'USD' },
      { orderAmount: '1250', priceCurrency: 'USD' },
      { orderAmount: 1250, priceCurrency: 'usd' },
      { orderAmount: 1250, priceCurrency: 'XYZ' },
      { orderAmount: 1250, priceCurrency: 'USD', surchargeAmount: 30, taxAmount: 100 },
      { orderAmount: 1250, priceCurrency: 'USD', tipAmount: 5 },
      { orderAmount: 1250 },
    ],
  }),
];

/** The check's yes is the schema's: every body it accepts, the schema accepts and leaves as it is. Returns how many it accepted. */
function expectNoYesTheSchemaRefuses(schema: z.ZodType, quickCheck: QuickCheck, bodies: readonly unknown[]): number {
  let accepted = 0;
  for (const body of bodies) {
    if (!quickCheck(body)) continue;
    accepted++;
    const parsed = schema.safeParse(body);
    expect(parsed.success, JSON.stringify(body)).toBe(true);
    expect(parsed.data).toStrictEqual(body);
  }
  return accepted;
}

describe('the create-session quick check', () => {
  for (const localDevelopment of [false, true]) {
    const schema = createCheckoutSessionRequestSchema({ localDevelopment });
    const quickCheck = checkoutSessionQuickCheck({ localDevelopment });

    it(`never says yes to a body the schema refuses or would change (localDevelopment ${localDevelopment})`, () => {
      expect(expectNoYesTheSchemaRefuses(schema, quickCheck, sessionVariants)).toBeGreaterThan(5);
    });

    it(`says yes to the common body, so the call skips zod (localDevelopment ${localDevelopment})`, () => {
      expect(quickCheck(session)).toBe(true);
      expect(quickCheck({ ...session, amount: { orderAmount: 1250, taxAmount: 100, surchargeAmount: 0, priceCurrency: 'JPY' } })).toBe(true);
    });
  }

  it('follows localDevelopment for callback URLs as the schema does', () => {
    const local = { ...session, notifyUrl: 'http://127.0.0.1:3000/payments/webhook' };
    expect(checkoutSessionQuickCheck({ localDevelopment: true })(local)).toBe(true);
    expect(checkoutSessionQuickCheck({})(local)).toBe(false);
  });
});

const refund = {
  appId: 'app_1',
  merchantId: 'mch_1',
  transactionRequestId: 'r'.repeat(64),
  originalTransactionId: 'txn_1',
  amount: { priceCurrency: 'USD', orderAmount: 100 },
};

const refundVariants = [
  refund,
  ...variants(refund, {
    appId: BAD_STRINGS,
    transactionRequestId: [...BAD_STRINGS, 'r'.repeat(65)],
    originalTransactionId: [undefined, '', 't'.repeat(64), 't'.repeat(65), 5],
    originalTransactionRequestId: ['pay_1', 'has space', 'p'.repeat(65)],
    description: BAD_STRINGS,
    attach: ['note'],
    notifyUrl: ['https://shop.example.com/hook', 'http://127.0.0.1/hook', 'nope'],
    amount: [
      undefined,
      null,
      { priceCurrency: 'USD' },
      { priceCurrency: 'USD', orderAmount: 0 },
      { priceCurrency: 'USD', orderAmount: 100, totalAmount: 100 },
      { priceCurrency: 'USD', orderAmount: 100, tipAmount: 5, totalAmount: 105 },
      { priceCurrency: 'USD', orderAmount: 100, totalAmount: 90 },
      { priceCurrency: 'USD', orderAmount: 1.5 },
      { priceCurrency: 'USD', orderAmount: 100, extra: 1 },
      { priceCurrency: 'usd', orderAmount: 100 },
      { orderAmount: 100 },
    ],
  }),
  { ...refund, originalTransactionId: undefined, originalTransactionRequestId: 'pay_1' },
];

describe('the refund quick check', () => {
  for (const localDevelopment of [false, true]) {
    it(`never says yes to a body the schema refuses or would change (localDevelopment ${localDevelopment})`, () => {
      const accepted = expectNoYesTheSchemaRefuses(createRefundRequestSchema({ localDevelopment }), refundQuickCheck({ localDevelopment }), refundVariants);
      expect(accepted).toBeGreaterThan(5);
    });
  }

  it('says yes to a refund of part or all of a payment, so the call skips zod', () => {
    const quickCheck = refundQuickCheck({});
    expect(quickCheck(refund)).toBe(true);
    expect(quickCheck({ ...refund, amount: undefined })).toBe(true);
  });
});

const query = { appId: 'app_1', merchantId: 'mch_1', transactionId: 'txn_1' };

describe('the transaction query quick check', () => {
  it('never says yes to a query the schema refuses', () => {
    const queries = [
      query,
      ...variants(query, { appId: BAD_STRINGS, transactionId: [undefined, '', 't'.repeat(65), 5], transactionRequestId: ['req_1', 'has space'], extra: ['x'] }),
      { appId: 'app_1', merchantId: 'mch_1', transactionRequestId: 'req_1' },
    ];
    expect(expectNoYesTheSchemaRefuses(transactionQuerySchema, transactionQueryQuickCheck, queries)).toBeGreaterThan(2);
  });

  it('says yes to a lookup by either id, so the call skips zod', () => {
    expect(transactionQueryQuickCheck(query)).toBe(true);
    expect(transactionQueryQuickCheck({ appId: 'app_1', merchantId: 'mch_1', transactionRequestId: 'req_1' })).toBe(true);
  });
});

describe('the envelope quick check', () => {
  const envelope = { code: '0', msg: 'success', traceId: 'trace-1', data: { sessionId: 's' } };
  const envelopes = [
    envelope,
    { code: 'S04', traceId: 't' },
    { code: 'E01', traceId: 't', data: null, extra: [1] },
    ...variants(envelope, {
      code: [undefined, 0, null],
      traceId: [undefined, 7],
      msg: [null, 3],
      data: [[], 'text', 5, null],
    }),
    null,
    [],
    'text',
  ];

  it('never says yes to JSON the envelope schema refuses', () => {
    for (const json of envelopes) {
      if (isEnvelope(json)) expect(responseEnvelopeSchema.safeParse(json).success, JSON.stringify(json)).toBe(true);
    }
  });

  it('says yes to success and refusal envelopes, so answers skip zod', () => {
    expect(isEnvelope(envelope)).toBe(true);
    expect(isEnvelope({ code: 'E01', msg: 'bad', traceId: 't', data: null })).toBe(true);
    expect(isEnvelope({ code: 'S04', traceId: 't' })).toBe(true);
  });
});

describe('the session data quick check', () => {
  const data = { checkoutUrl: 'https://pay.example.com/checkout/cs_1', expiresAt: '2026-11-23T07:00:00Z', sessionId: 'cs_1', transactionRequestId: 'r1' };
  const answers = [
    data,
    { checkoutUrl: 'https://pay.example.com/c' },
    ...variants(data, {
      checkoutUrl: [
        undefined,
        7,
        '',
        'http://127.0.0.1:4010/checkout/cs_1',
        'HTTPS://pay.example.com/c',
        ' https://pay.example.com/c',
        'https://pay.example.com/c\n',
        'https://pay.exa\tmple.com/c',
        'https://pay.example.com/ü',
        'https:pay.example.com',
        'https://',
        'ftp://pay.example.com/c',
        'javascript:alert(1)',
        'https://[::1/c',
      ],
      expiresAt: [1_795_000_000_000, null, true, {}],
      sessionId: [42, null, ['cs']],
    }),
    null,
    [],
    'text',
  ];

  for (const localDevelopment of [false, true]) {
    it(`says yes only to data the schema accepts unchanged (localDevelopment: ${localDevelopment})`, () => {
      let yes = 0;
      for (const answer of answers) {
        if (!isCheckoutSessionData(answer, { localDevelopment })) continue;
        yes += 1;
        const parsed = sessionDataSchema({ localDevelopment }).safeParse(answer);
        expect(parsed.success, JSON.stringify(answer)).toBe(true);
        expect(parsed.data).toEqual(answer);
      }
      expect(yes).toBeGreaterThanOrEqual(4);
      expect(yes).toBeLessThan(answers.length);
    });
  }

  it('says yes to the answers the service and the sandbox send, so they skip zod', () => {
    expect(isCheckoutSessionData(data, {})).toBe(true);
    expect(isCheckoutSessionData({ ...data, checkoutUrl: 'http://127.0.0.1:4010/checkout/cs_1' }, { localDevelopment: true })).toBe(true);
    expect(isCheckoutSessionData({ ...data, checkoutUrl: 'http://127.0.0.1:4010/checkout/cs_1' }, {})).toBe(false);
  });
});

describe('the refund and transaction data quick checks', () => {
  const amount = { priceCurrency: 'USD', orderAmount: 300, totalAmount: 300 };
  const outcome = { transactionStatus: 'S', amount, createTime: '2026-11-23T07:00:00.000Z', completeTime: '2026-11-23T07:00:01.000Z' };
  const refund = { transactionId: 'rf_1', transactionRequestId: 'r1', originalTransactionId: 'tx_1', transactionType: 'REFUND', ...outcome };
  const sale = { transactionId: 'tx_1', transactionRequestId: 'r0', referenceOrderId: 'order-0001', transactionType: 'SALE', ...outcome };
  const outcomeVariants = {
    transactionStatus: [undefined, 7, null],
    amount: [undefined, null, [], 'USD 3.00', { orderAmount: 300 }, { ...amount, priceCurrency: 840 }, { ...amount, taxAmount: '10' }, { ...amount, tipAmount: Infinity }, { ...amount, surchargeAmount: null }, { ...amount, extra: 'kept' }],
    createTime: [undefined, 1_795_000_000_000, null, {}],
    completeTime: [undefined, '1795000000', true],
    transactionResultCode: ['CARD_DECLINED', 7],
    transactionResultMsg: ['declined', null],
    reason: [{ code: 'CARD_DECLINED' }, 'declined', null],
  };
  const cases = [
    {
      name: 'refund',
      check: isRefundData,
      schema: refundDataSchema,
      answers: [refund, ...variants(refund, { ...outcomeVariants, transactionId: [undefined, '', 42, null], originalTransactionId: [undefined, '', 7] })],
    },
    {
      name: 'transaction',
      check: isTransactionData,
      schema: transactionDataSchema,
      answers: [
        sale,
        ...variants(sale, {
          ...outcomeVariants,
          transactionId: [undefined, '', 42],
          transactionRequestId: [undefined, '', 9, null],
          referenceOrderId: [undefined, 12],
          transactionType: [undefined, 1],
          relatedTransactionStatus: ['PART_REFUNDED', 3],
        }),
      ],
    },
  ];

  for (const { name, check, schema, answers } of cases) {
    it(`says yes to ${name} data only when the schema accepts it unchanged`, () => {
      const all = [...answers, null, [], 'text'];
      let yes = 0;
      for (const answer of all) {
        if (!check(answer)) continue;
        yes += 1;
        const parsed = schema.safeParse(answer);
        expect(parsed.success, JSON.stringify(answer)).toBe(true);
        expect(parsed.data).toEqual(answer);
      }
      expect(yes).toBeGreaterThanOrEqual(8);
      expect(yes).toBeLessThan(all.length);
    });
  }

  it('says yes to the answers the sandbox and the service send, so they skip zod', () => {
    expect(isRefundData(refund)).toBe(true);
    expect(isTransactionData(sale)).toBe(true);
    expect(isTransactionData({ ...sale, relatedTransactionStatus: 'PART_REFUNDED', transactionResultCode: 'X', transactionResultMsg: 'y' })).toBe(true);
    // A number id is made a string by the schema, so it goes there.
    expect(isRefundData({ ...refund, transactionId: 42 })).toBe(false);
  });
});
