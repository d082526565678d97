import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() => assertPackageExports('@paymount/fastify', import.meta.dirname, ['paymentPlugin'])).not.toThrow();
});
