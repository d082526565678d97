import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect, it } from 'vitest';
import { OPTIONS_PAGE, optionTables, pagesWithTables, withOptionTables } from '../scripts/readme-options';

it("the site's option tables say what the JSDoc on the option types says (npm run readme:options -w @paymount/core rewrites them)", () => {
  const tables = optionTables();
  const optionsPage = readFileSync(OPTIONS_PAGE, 'utf8');
  for (const name of tables.keys()) expect(optionsPage, `${relative(process.cwd(), OPTIONS_PAGE)} has no table of ${name}`).toContain(`<!-- options: ${name} -->`);
  const pages = pagesWithTables();
  expect(pages).toContain(OPTIONS_PAGE);
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    expect(withOptionTables(text, tables), `${relative(process.cwd(), page)}'s option tables are stale`).toBe(text);
  }
});

it('a table row is the JSDoc of its option, marked when the option is required', () => {
  const routes = optionTables().get('PaymentRoutesOptions')!;
  expect(routes).toMatch(/^\| `resolveOrder` \(required\) \| Looks up the merchant's order on the server/m);
  expect(routes).toMatch(/^\| `bodyLimitBytes` \| Largest body of POST \/checkout and POST \/wallet\/pay, in bytes\. Default 16 KiB/m);
});
