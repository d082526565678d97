import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() => assertPackageExports('@paymount/nuxt', import.meta.dirname, ['paymentHandler'])).not.toThrow();
  expect(() => assertPackageExports('@paymount/nuxt/components', import.meta.dirname, ['WalletButton', 'followOrderStatus', 'startCheckout'])).not.toThrow();
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
