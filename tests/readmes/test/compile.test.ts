import { describe, expect, it } from 'vitest';
import { compileBlocks, compiledUnder, settings } from '../src/compile';
import { readmePaths, writtenBlocks } from '../src/workspace';

const blocks = writtenBlocks();

it('finds the blocks of every README', () => {
  const withBlocks = new Set(blocks.map((block) => block.readme));
  expect(readmePaths().map(({ readme }) => readme).filter((readme) => !withBlocks.has(readme))).toEqual([]);
});

describe.each(settings.map((setting) => [setting.name, setting] as const))('README code blocks compile against the built packages (%s)', (_name, setting) => {
  const compiled = compileBlocks(blocks, setting);

  it("with no error in paymount's declarations (skipLibCheck: false)", () => {
    expect(compiled.library).toEqual([]);
  });

  it.each(blocks.filter((block) => compiledUnder(setting, block)).map((block) => [`${block.readme} README.md:${block.line}`, block] as const))('%s', (_block, block) => {
    expect(compiled.byBlock.get(block)).toEqual([]);
  });
});
