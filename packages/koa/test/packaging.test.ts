import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/koa', import.meta.dirname, ['paymentMiddleware', 'mountPaymentRoutes']),
  ).not.toThrow();
});
