import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, SANDBOX_CODES } from '../src/index';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it.each(Object.entries(SANDBOX_CODES))('documents code %s with its HTTP status', (code, { status }) => {
    expect(readme).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
  });

  it.each(FAULT_KINDS)('documents fault kind %s', (kind) => {
    expect(readme).toContain(`| \`${kind}\` |`);
  });
});
