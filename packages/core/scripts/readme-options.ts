// The documentation site's option tables, written from the JSDoc on the option types in src/routes/types.ts
// (what a merchant's editor shows), so what an option means is written once. `npm run readme:options -w
// @paymount/core` rewrites them; test/readme-options.test.ts fails while they are stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const SITE = join(packageDir, '..', '..', 'site');
/** The site page that holds the routes' options: each table is there, and may be repeated on a concept page. */
export const OPTIONS_PAGE = join(SITE, 'reference', 'routes-options.md');
const TYPES = `${packageDir}src/routes/types.ts`;

/** Each table's option type, by the name its page's marker gives (`<!-- options: Name -->`). */
const TABLE_TYPES = ['PaymentRoutesOptions', 'WebhookRouteSettings', 'OrderGuardOptions', 'WalletRouteOptions'] as const;

const MARKER = /<!-- options: (\w+) -->\n[\s\S]*?<!-- \/options -->/g;

function tableOf(checker: ts.TypeChecker, type: ts.Type): string {
  const rows = checker.getPropertiesOfType(type).map((property) => {
    const required = (property.flags & ts.SymbolFlags.Optional) === 0 ? ' (required)' : '';
    const meaning = ts.displayPartsToString(property.getDocumentationComment(checker)).replace(/\s+/g, ' ').replaceAll('|', '\\|');
    if (meaning === '') throw new Error(`${TYPES}: the option \`${property.name}\` has no JSDoc, which its README row is written from`);
    return `| \`${property.name}\`${required} | ${meaning} |`;
  });
  return ['| Option | Meaning |', '|---|---|', ...rows].join('\n');
}

/** The tables, by type name, as the JSDoc in src/routes/types.ts writes them. */
export function optionTables(): Map<string, string> {
  const program = ts.createProgram([TYPES], { strict: true, exactOptionalPropertyTypes: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(TYPES)!)!;
  const exported = checker.getExportsOfModule(module);
  return new Map(
    TABLE_TYPES.map((name) => {
      const symbol = exported.find((candidate) => candidate.name === name);
      if (symbol === undefined) throw new Error(`${TYPES} exports no ${name}`);
      return [name, tableOf(checker, checker.getDeclaredTypeOfSymbol(symbol))];
    }),
  );
}

/** Every page of the site (its Markdown source) that marks an option table. */
export function pagesWithTables(): string[] {
  return readdirSync(SITE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') && !file.split(/[\\/]/).some((part) => part === 'node_modules' || part === 'dist' || part === 'api' || part === '.vitepress'))
    .map((file) => join(SITE, file))
    .filter((page) => readFileSync(page, 'utf8').includes('<!-- options: '));
}

/** `page` with every marked table written from `tables`. */
export function withOptionTables(page: string, tables: Map<string, string>): string {
  return page.replace(MARKER, (_block, name: string) => {
    const table = tables.get(name);
    if (table === undefined) throw new Error(`a site page marks a table of ${name}, which is not one of ${TABLE_TYPES.join(', ')}`);
    return `<!-- options: ${name} -->\n${table}\n<!-- /options -->`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = optionTables();
  for (const page of pagesWithTables()) writeFileSync(page, withOptionTables(readFileSync(page, 'utf8'), tables));
}
