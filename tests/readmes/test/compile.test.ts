import { describe, expect, it } from 'vitest';
import { compileBlocks } from '../src/compile';
import { readmePaths, writtenBlocks } from '../src/workspace';

const blocks = writtenBlocks();
const errors = compileBlocks(blocks);

describe('README code blocks compile against the built packages', () => {
  it('finds the blocks of every README', () => {
    const withBlocks = new Set(blocks.map((block) => block.readme));
    expect(readmePaths().map(({ readme }) => readme).filter((readme) => !withBlocks.has(readme))).toEqual([]);
  });

  it.each(blocks.map((block) => [`${block.readme} README.md:${block.line}`, block] as const))('%s', (_name, block) => {
    expect(errors.get(block)).toEqual([]);
  });
});
