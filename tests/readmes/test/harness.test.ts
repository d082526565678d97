import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { compileBlocks } from '../src/compile';
import { generatedDir } from '../src/workspace';

const markdown = [
  '# pkg', //                                 1
  '', //                                      2
  '## Quick start', //                        3
  '', //                                      4
  '```sh', //                                 5
  'npm install pkg', //                       6
  '```', //                                   7
  '', //                                      8
  '<!-- prelude: express-app, sandbox -->', // 9
  '', //                                      10
  '```ts', //                                 11
  '// app.module.ts', //                      12
  'export const a = 1;', //                   13
  '```', //                                   14
  '', //                                      15
  '## Other', //                              16
  'Some text.', //                            17
  '```typescript', //                         18
  'const b: number = 2;', //                  19
  '```', //                                   20
].join('\n');

describe('readmeBlocks', () => {
  it('reads ts and typescript blocks with their line, section, file name and preludes, and skips other languages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-'));
    writeFileSync(join(dir, 'README.md'), markdown);
    expect(readmeBlocks('pkg', join(dir, 'README.md'))).toEqual([
      { readme: 'pkg', line: 12, code: '// app.module.ts\nexport const a = 1;', section: 'Quick start', fileName: 'app.module.ts', preludes: ['express-app', 'sandbox'] },
      { readme: 'pkg', line: 19, code: 'const b: number = 2;', section: 'Other', fileName: undefined, preludes: [] },
    ]);
  });
});

describe('compileBlocks', () => {
  it("names the README line of an error, past the block's prelude", () => {
    const dir = join(generatedDir, '_harness', 'L30');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'block.ts');
    // Two prelude lines, then the block: its second line is README line 31.
    writeFileSync(file, 'declare const app: { listen(port: number): void };\nexport {};\napp.listen(3000);\napp.listen("3000");\n');
    const block = { commonjsFile: file, readme: 'pkg', line: 30, code: '', section: '', fileName: undefined, preludes: ['x'], file, preludeLines: 2 };
    expect(compileBlocks([block]).byBlock.get(block)).toEqual([
      `pkg README.md:31: Argument of type 'string' is not assignable to parameter of type 'number'.`,
    ]);
  });
});
