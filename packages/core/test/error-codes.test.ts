import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PaymentErrorCode, WebhookVerificationError } from '../src';
import { WEBHOOK_FAILURE_REASONS } from '../src/entries/internal';

/** The first cell of every row of the README's "Error codes" table, in order. */
function codesInReadmeTable(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Error codes\n'));
  if (section === undefined) throw new Error('the core README has no "## Error codes" section');
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]!);
}

describe('PaymentErrorCode', () => {
  const codes = Object.values(PaymentErrorCode);

  it('names each code by itself', () => {
    for (const [name, code] of Object.entries(PaymentErrorCode)) expect(code).toBe(name);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('is listed whole in the core README, each code once and no other', () => {
    const listed = codesInReadmeTable();
    expect(listed.filter((code, i) => listed.indexOf(code) !== i), 'listed twice').toEqual([]);
    expect(codes.filter((code) => !listed.includes(code)), 'missing from the README').toEqual([]);
    expect(listed.filter((code) => !(codes as string[]).includes(code)), 'not a PaymentErrorCode').toEqual([]);
  });

  it('holds the code of every webhook failure reason', () => {
    for (const reason of WEBHOOK_FAILURE_REASONS) {
      const { code } = new WebhookVerificationError(reason, 'refused');
      expect(PaymentErrorCode[code]).toBe(`WEBHOOK_${reason.toUpperCase()}`);
    }
  });
});
