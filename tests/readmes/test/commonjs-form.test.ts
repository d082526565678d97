import { describe, expect, it } from 'vitest';
import { commonjsForm } from '../src/commonjs-form';

describe('commonjsForm: a block as a CommonJS app runs it', () => {
  it('puts the code after the imports into async function main(), on the same lines, and calls it', () => {
    const code = ["import express from 'express';", "declare const port: number;", 'const sandbox = await start();', 'app.listen(port);'].join('\n');
    const form = commonjsForm(code);
    expect(form.split('\n').slice(0, 4)).toEqual([
      "import express from 'express';",
      'declare const port: number; async function main(): Promise<void> {',
      'const sandbox = await start();',
      'app.listen(port);',
    ]);
    expect(form.endsWith('\n}\nvoid main();')).toBe(true);
  });

  it('leaves a block without top-level await as written (an await inside a function is not one)', () => {
    const code = "import x from 'x';\nasync function f() { await x(); }\nfor (const y of []) f();";
    expect(commonjsForm(code)).toBe(code);
  });

  it('leaves an await that comes before an import at the top level, where the CommonJS compile refuses it (TS1309)', () => {
    const form = commonjsForm("const a = await f();\nimport x from 'x';\nx(a);");
    expect(form.startsWith('const a = await f();\n')).toBe(true);
  });
});
