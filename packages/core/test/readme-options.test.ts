import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { optionTables, README, withOptionTables } from '../scripts/readme-options';

it("the README's option tables say what the JSDoc on the option types says (npm run readme:options -w @paymount/core rewrites them)", () => {
  const readme = readFileSync(README, 'utf8');
  const tables = optionTables();
  for (const name of tables.keys()) expect(readme, `README.md has no table of ${name}`).toContain(`<!-- options: ${name} -->`);
  expect(withOptionTables(readme, tables)).toBe(readme);
});

it('a table row is the JSDoc of its option, marked when the option is required', () => {
  const routes = optionTables().get('PaymentRoutesOptions')!;
  expect(routes).toMatch(/^\| `resolveOrder` \(required\) \| Looks up the merchant's order on the server/m);
  expect(routes).toMatch(/^\| `bodyLimitBytes` \| Largest body of POST \/checkout and POST \/wallet\/pay, in bytes\. Default 16 KiB/m);
});
