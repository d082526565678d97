import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The layer rules `npm run lint` runs (.dependency-cruiser.cjs) catch what they are there for:
 * planted in a small tree of their own, an import up the layers and a cycle each fail.
 */
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IConfiguration;
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'paymount-layers-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const result = await cruise(['src'], { baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden ?? [] }, tsPreCompilationDeps: true });
  if (typeof result.output === 'string') throw new Error('expected the cruise result, not a report');
  return result.output.summary.violations.map((violation) => violation.rule.name);
}

describe('the layer rules', () => {
  it('let a layer import the layers below it', async () => {
    expect(await violationsOf({ 'src/shared/a.ts': 'export const a = 1;\n', 'src/routes/b.ts': "import { a } from '../shared/a';\nexport const b = a;\n" })).toEqual([]);
  });

  it('refuse an import up the layers, a type-only one too', async () => {
    const violations = await violationsOf({
      'src/shared/a.ts': "import type { B } from '../routes/b';\nexport const a: B = 1;\n",
      'src/routes/b.ts': 'export type B = number;\n',
    });
    expect(violations).toEqual(['shared-imports-below']);
  });

  it('refuse a layer importing an entry', async () => {
    expect(await violationsOf({ 'src/index.ts': 'export const i = 1;\n', 'src/orders/o.ts': "import { i } from '../index';\nexport const o = i;\n" })).toEqual(['entries-on-top']);
  });

  it('refuse a cycle, even within one layer', async () => {
    const violations = await violationsOf({
      'src/orders/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
      'src/orders/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
    });
    expect(violations).toEqual(['no-circular']);
  });
});
