import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() => assertPackageExports('@paymount/astro', import.meta.dirname, ['paymentEndpoints'])).not.toThrow();
});

it('publint and Are The Types Wrong find no problem in the packed package (the .astro component is built by `astro build` in the test app, not by TypeScript)', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`, { notTypeScriptEntries: ['./components/WalletButton.astro'] })).not.toThrow();
}, 120_000);

it('the packed package ships the component as source, with the script it imports', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: `${import.meta.dirname}/..`, encoding: 'utf8' })) as [{ files: { path: string }[] }];
  expect(packed.files.map((file) => file.path).filter((path) => path.startsWith('components/')).sort()).toEqual(['components/WalletButton.astro', 'components/wallet-button-element.ts']);
}, 120_000);
