import {
  createPaymentClient,
  createPaymentRoutes,
  PaymentValidationError,
  verifyWebhook,
  WebhookVerificationError,
} from '@paymount/core';
import {
  amountSchema,
  checkoutSessionRequestSchema,
  directPaymentRequestSchema,
  productLineItemSchema,
  responseEnvelopeSchema,
  terminalSaleRequestSchema,
  validate,
} from '@paymount/core/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgeString, hostileValue } from '../support/hostile';
import { SEED } from '../support/seed';

/**
 * Whatever a caller passes, paymount's own validation answers with a
 * PaymentValidationError (or, for webhooks, a WebhookVerificationError), never
 * a TypeError or a zod error leaking out, and never a crash.
 */
const RUNS = 400;

/** Runs `work`; it must return or throw an instance of `allowed`. */
function onlyThrows(allowed: new (...args: never[]) => Error, work: () => unknown): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof allowed)) throw new Error(`threw ${String((error as Error)?.name)}: ${String((error as Error)?.message)}`);
  }
}

const VALID_CHECKOUT = {
  appId: 'app1',
  merchantId: 'm1',
  transactionRequestId: 'req_0001',
  referenceOrderId: 'order-0001',
  amount: { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' },
  description: 'Two coffees',
  productList: [{ amount: 625, name: 'Coffee', num: 2 }],
  notifyUrl: 'https://shop.example.com/payments/webhook',
};

/** A valid body with one field (at any depth) replaced by a hostile value, or removed. */
function mutated(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (value: unknown, path: string[]) => {
    if (path.length > 0) paths.push(path);
    if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key]);
  };
  walk(base, []);
  return fc.tuple(fc.constantFrom(...paths), fc.option(hostileValue(), { nil: undefined })).map(([path, replacement]) => {
    const copy = structuredClone(base) as Record<string, unknown>;
    let target: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
    const last = path.at(-1) as string;
    if (replacement === undefined) delete target[last];
    else target[last] = replacement;
    return copy;
  });
}

describe('core schemas under hostile input', () => {
  const schemas = {
    amountSchema,
    productLineItemSchema,
    checkoutSessionRequestSchema,
    directPaymentRequestSchema,
    terminalSaleRequestSchema,
    responseEnvelopeSchema,
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: any value validates or throws PaymentValidationError naming field and rule`, () => {
      fc.assert(
        fc.property(hostileValue(), (value) => {
          try {
            validate(schema, value, name);
          } catch (error) {
            expect(error).toBeInstanceOf(PaymentValidationError);
            for (const issue of (error as PaymentValidationError).issues) {
              expect(typeof issue.rule).toBe('string');
              expect(typeof issue.message).toBe('string');
            }
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }

  it('a valid checkout body with any one field made hostile validates or throws PaymentValidationError', () => {
    fc.assert(
      fc.property(mutated(VALID_CHECKOUT), (value) => onlyThrows(PaymentValidationError, () => validate(checkoutSessionRequestSchema, value, 'checkout'))),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a direct payment body with any one field made hostile validates or throws PaymentValidationError', () => {
    const { productList: _dropped, ...base } = VALID_CHECKOUT;
    const body = { ...base, paymentMethod: 'WALLET_PAY', cardEncryptedData: '{"protocolVersion":"ECv2"}' };
    fc.assert(
      fc.property(mutated(body), (value) => onlyThrows(PaymentValidationError, () => validate(directPaymentRequestSchema, value, 'direct payment'))),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('client and handler options: hostile values are refused with PaymentValidationError', async () => {
    const base = { apiKey: 'sk_test_property_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' };
    fc.assert(
      fc.property(mutated({ ...base, timeoutMs: 1000, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }), (options) =>
        onlyThrows(PaymentValidationError, () => void createPaymentClient(options as never).close()),
      ),
      { seed: SEED, numRuns: 200 },
    );
    fc.assert(
      fc.property(mutated({ client: base, webhook: { secret: 'whsec_property_secret_0123' }, notifyUrl: 'https://shop.example.com/webhook' }), (options) =>
        onlyThrows(PaymentValidationError, () => {
          void createPaymentRoutes({ resolveOrder: () => null, ...(options as object) } as never).close();
        }),
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  // Header values are what HTTP can carry (string, repeated string); the body may be anything a parser left behind.
  it('verifyWebhook: any body and header values are refused with WebhookVerificationError', async () => {
    const headerValue = fc.oneof(edgeString(), fc.array(edgeString(), { maxLength: 3 }), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        hostileValue(),
        fc.dictionary(fc.constantFrom('x-signature', 'x-timestamp', 'x-client-request-id', 'content-type', 'X-Signature'), headerValue),
        async (rawBody, headers) => {
          try {
            await verifyWebhook({ rawBody: rawBody as never, headers: headers as never, secret: 'whsec_property_secret_0123', toleranceMs: 300_000 });
          } catch (error) {
            expect(error).toBeInstanceOf(WebhookVerificationError);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
