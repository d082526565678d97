import { join } from 'node:path';
import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints, resolvedFile } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() => assertPackageExports('@paymount/sveltekit', import.meta.dirname, ['paymentHandlers'])).not.toThrow();
});

// `./components` is .svelte source, which only an app's Svelte compiler (a bundler's `svelte` condition) loads: Node
// cannot, so it has no node16 resolution to check. The test app's svelte-check resolves its types as a SvelteKit app does.
it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`, { notTypeScriptEntries: ['./components'] })).not.toThrow();
}, 120_000);

it("`./components` resolves to the .svelte components' module under the svelte condition a Svelte bundler sets", async () => {
  const resolved = await resolvedFile('@paymount/sveltekit/components', import.meta.dirname, ['svelte', 'browser'], 'import');
  expect(resolved).toBe(join(import.meta.dirname, '..', 'dist', 'components', 'index.js'));
});
