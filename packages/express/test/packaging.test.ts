import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() => assertPackageExports('@paymount/express', import.meta.dirname, ['paymentRouter'])).not.toThrow();
});
