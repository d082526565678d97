import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/core', import.meta.dirname, [
      'PaymentError',
      'PaymentValidationError',
      'PaymentApiError',
      'PaymentErrorCode',
      'PaymentRateLimitError',
      'PaymentNetworkError',
      'PaymentTimeoutError',
      'WebhookVerificationError',
      'WebhookPayloadError',
      'createRedactingLogger',
      'consoleLogger',
      'PaymentResponseError',
      'createPaymentClient',
      'toMinorUnits',
      'fromMinorUnits',
      'currencyExponent',
      'paymentStatusOf',
      'isSessionExpired',
      'buildWalletPaymentRequest',
      'verifyWebhook',
      'signWebhook',
      'MemoryIdempotencyStore',
      'dedupeKeyOf',
      'createPaymentRoutes',
      'createNodeMiddleware',
      'createFetchHandler',
      'PaymentRouteError',
      'PaymentStoreUnavailableError',
      'MemoryOrderAttemptStore',
    ]),
  ).not.toThrow();
});

it('each subpath entry loads from require() and import with its public names', () => {
  const entries: Record<string, string[]> = {
    '@paymount/core/schemas': ['validate', 'amountSchema', 'checkoutSessionRequestSchema', 'paymentClientOptionsSchema', 'isPublicHostname'],
    '@paymount/core/http': ['readNodeBody', 'toNeutralRequest', 'writeNeutralResponse'],
    '@paymount/core/stores': ['isFinalState', 'isUnsettled', 'settledAttempt', 'orderAttemptSchema', 'ORDER_ATTEMPT_STATES'],
  };
  for (const [specifier, names] of Object.entries(entries)) {
    expect(() => assertPackageExports(specifier, import.meta.dirname, names)).not.toThrow();
  }
});

it('an error thrown through a subpath entry is an instance of the root entry class, in CJS and ESM', () => {
  // The entries share chunks: with one bundle each, `validate` would throw its own copy of the class.
  const check = `(core, schemas) => { try { schemas.validate(schemas.amountSchema, {}, 'amount'); return 'no error'; }
    catch (error) { return error instanceof core.PaymentValidationError && error instanceof core.PaymentError; } }`;
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(run(['--input-type=commonjs', '-e', `process.stdout.write(String((${check})(require('@paymount/core'), require('@paymount/core/schemas'))))`])).toBe('true');
  expect(
    run(['--input-type=module', '-e', `process.stdout.write(String((${check})(await import('@paymount/core'), await import('@paymount/core/schemas'))))`]),
  ).toBe('true');
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
