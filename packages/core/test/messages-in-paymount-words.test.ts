import { describe, expect, it } from 'vitest';
import { createPaymentClient, createPaymentRoutes, PaymentValidationError, type PaymentClientOptions, type PaymentRoutesOptions } from '../src';
import { API_KEY, checkoutInput, clientOptions, directPaymentInput, refundInput } from './support/fixtures';

/** zod's own phrasing, which no message a merchant reads may carry. */
const ZOD_WORDS = /invalid input|expected|received|unrecognized key/i;

const client = createPaymentClient(clientOptions('https://api.example.com'));
const routesOptions: PaymentRoutesOptions = {
  client: clientOptions('https://api.example.com'),
  resolveOrder: async () => null,
  notifyUrl: 'https://shop.example.com/payments/webhook',
  wallet: { gatewayId: 'gw_1' },
  webhook: { secret: 'whsec_0123456789abcdef0123456789abcdef' },
};

/** The PaymentValidationError that `fn` throws or rejects with. */
async function refusal(fn: () => unknown): Promise<PaymentValidationError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentValidationError);
    return error as PaymentValidationError;
  }
  throw new Error('expected a PaymentValidationError');
}

const badClientOptions: Record<string, unknown> = {
  'nothing': {},
  'not an object': 'sk_test',
  'a misspelt option': { ...clientOptions('https://api.example.com'), timeoutMS: 1000 },
  'wrong types': { ...clientOptions('https://api.example.com'), appId: 42, timeoutMs: 'fast', retry: { maxAttempts: -1 } },
  'an unknown retry setting': { ...clientOptions('https://api.example.com'), retry: { maxAttempt: 2 } },
  'a bad key and URL': { ...clientOptions('ftp://api.example.com'), apiKey: '' },
};

const badRequests: Record<string, () => unknown> = {
  'a checkout without description': () => client.createCheckoutSession({ ...checkoutInput(), description: undefined } as never),
  'a checkout with a string amount': () => client.createCheckoutSession(checkoutInput({ amount: { orderAmount: '25.00', priceCurrency: 'USD' } as never })),
  'a checkout with an unknown field': () => client.createCheckoutSession({ ...checkoutInput(), descriptoin: 'x' } as never),
  'a checkout with a long description': () => client.createCheckoutSession(checkoutInput({ description: 'x'.repeat(200) })),
  'a payment with an empty token': () => client.directPayment(directPaymentInput({ cardEncryptedData: '' })),
  'a payment with a bad currency': () => client.directPayment(directPaymentInput({ amount: { orderAmount: 100, priceCurrency: 'usd' } })),
  'a refund naming nothing': () => client.refund({ ...refundInput(), originalTransactionId: undefined } as never),
  'a refund with a fraction': () => client.refund(refundInput({ amount: { priceCurrency: 'USD', orderAmount: 1.5 } })),
};

const badRoutesOptions: Record<string, unknown> = {
  'nothing': {},
  'no webhook': { ...routesOptions, webhook: undefined },
  'a misspelt option': { ...routesOptions, notifyURL: 'https://shop.example.com/payments/webhook' },
  'an unknown event': { ...routesOptions, on: { 'payment.succeded': () => undefined } },
  'bad client options too': { ...routesOptions, webhook: undefined, client: { ...clientOptions('https://api.example.com'), timeoutMS: 5 } },
};

describe('every validation message a merchant sees is in paymount words', () => {
  it.each(Object.entries(badClientOptions))('client options: %s', async (_name, options) => {
    const error = await refusal(() => createPaymentClient(options as PaymentClientOptions));
    for (const text of [error.message, ...error.issues.map((issue) => issue.message)]) expect(text).not.toMatch(ZOD_WORDS);
    expect(error.message).not.toContain(API_KEY);
  });

  it.each(Object.entries(badRequests))('request: %s', async (_name, call) => {
    const error = await refusal(call);
    for (const text of [error.message, ...error.issues.map((issue) => issue.message)]) expect(text).not.toMatch(ZOD_WORDS);
  });

  it.each(Object.entries(badRoutesOptions))('routes options: %s', async (_name, options) => {
    const error = await refusal(() => createPaymentRoutes(options as PaymentRoutesOptions));
    for (const text of [error.message, ...error.issues.map((issue) => issue.message)]) expect(text).not.toMatch(ZOD_WORDS);
  });
});

describe('what the messages say', () => {
  it('a missing field is required, with what it must be', async () => {
    const error = await refusal(badRequests['a checkout without description']!);
    expect(error.message).toContain('description is required: a non-empty string of at most 128 characters');
  });

  it('a misspelt option names the closest known one', async () => {
    expect((await refusal(() => createPaymentClient(badClientOptions['a misspelt option'] as PaymentClientOptions))).message).toContain(
      'timeoutMS is not an option; did you mean `timeoutMs`?',
    );
    expect((await refusal(() => createPaymentClient(badClientOptions['an unknown retry setting'] as PaymentClientOptions))).issues).toContainEqual({
      path: 'retry.maxAttempt',
      rule: 'unknown_field',
      message: 'is not an option; did you mean `maxAttempts`?',
    });
    expect((await refusal(() => createPaymentRoutes(badRoutesOptions['a misspelt option'] as PaymentRoutesOptions))).message).toContain(
      'notifyURL is not an option; did you mean `notifyUrl`?',
    );
  });

  it('an unknown event in `on` is reported under on.<name>, with the closest and the known events', async () => {
    const error = await refusal(() => createPaymentRoutes(badRoutesOptions['an unknown event'] as PaymentRoutesOptions));
    expect(error.issues).toEqual([expect.objectContaining({ path: 'on.payment.succeded', rule: 'one_of' })]);
    expect(error.message).toContain('on.payment.succeded is not an event; did you mean `payment.succeeded`? known: `payment.succeeded`');
  });

  it("the routes' issues and the client options' come in one error", async () => {
    const error = await refusal(() => createPaymentRoutes(badRoutesOptions['bad client options too'] as PaymentRoutesOptions));
    expect(error.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual(['webhook:required', 'client.timeoutMS:unknown_field']);
  });

  it('a wrong type says what the field must be', async () => {
    const error = await refusal(() => createPaymentClient(badClientOptions['wrong types'] as PaymentClientOptions));
    expect(error.message).toContain('appId must be a non-empty string of at most 32 characters');
    expect(error.message).toContain('timeoutMs must be');
  });
});
