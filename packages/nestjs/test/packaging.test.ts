import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/nestjs', import.meta.dirname, [
      'PaymentsModule',
      'PaymentsService',
      'OnPaymentEvent',
      'PAYMENT_EVENT_METADATA',
      'PAYMENTS_MODULE_OPTIONS',
      'PAYMENT_EVENT_CONTEXT_TYPE',
    ]),
  ).not.toThrow();
});
