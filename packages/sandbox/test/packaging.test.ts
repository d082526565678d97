import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/sandbox', import.meta.dirname, ['startSandbox', 'SANDBOX_CODES', 'SANDBOX_AMOUNTS', 'FAULT_KINDS']),
  ).not.toThrow();
});
