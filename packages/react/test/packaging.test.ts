import { expect, it } from 'vitest';
import { assertEsmOnlyPackageLints } from '../../../tools/browser-testing/esm-only-package';
import { assertPackageExports } from '../../../tools/packaging';

it('the built module loads in plain Node, by import and by require(), with its public names', () => {
  expect(() => assertPackageExports('@paymount/react', import.meta.dirname, ['WalletButton', 'followOrderStatus', 'startCheckout'])).not.toThrow();
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertEsmOnlyPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
