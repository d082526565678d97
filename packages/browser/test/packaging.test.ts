import { expect, it } from 'vitest';
import { assertPackageLints, exportedNames } from '../../../tools/packaging';

it('the built module loads with import, with its public names', () => {
  expect(exportedNames('@paymount/browser', import.meta.dirname).import).toEqual(['WALLET_SCRIPT_URL', 'followOrderStatus', 'mountWalletButton', 'startCheckout']);
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
