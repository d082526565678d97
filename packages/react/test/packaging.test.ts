import { expect, it } from 'vitest';
import { assertEsmOnlyPackageLints, importedNames } from '../../../tools/browser-testing/esm-only-package';

it('the built module loads in plain Node (a server render imports it), with its public names', () => {
  expect(importedNames('@paymount/react', import.meta.dirname)).toEqual(['WalletButton', 'followOrderStatus', 'startCheckout']);
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertEsmOnlyPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
