import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, SANDBOX_CODES } from '../src/index';

// The codes' and the faults' tables moved from the README to the site's sandbox reference.
const readme = readFileSync(new URL('../../../site/reference/sandbox.md', import.meta.url), 'utf8');

describe('the sandbox reference (site/reference/sandbox.md)', () => {
  it.each(Object.entries(SANDBOX_CODES))('documents code %s with its HTTP status', (code, { status }) => {
    expect(readme).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
  });

  it.each(FAULT_KINDS)('documents fault kind %s', (kind) => {
    expect(readme).toContain(`| \`${kind}\` |`);
  });

  it('ends every table with a blank line, so no paragraph is swallowed into its last row', () => {
    const lines = readme.split('\n');
    const swallowed: string[] = [];
    lines.forEach((line, i) => {
      // A table is its header, its delimiter row (|---|---|) and the rows that follow.
      if (!/^\|(\s*:?-+:?\s*\|)+\s*$/.test(line)) return;
      let end = i + 1;
      while (lines[end]?.startsWith('|')) end += 1;
      const after = lines[end];
      if (after !== undefined && after !== '') swallowed.push(`line ${end + 1}: ${after}`);
    });
    expect(swallowed).toEqual([]);
  });
});
