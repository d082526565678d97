import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PaymentErrorCode, WebhookVerificationError } from '../src';
import { WEBHOOK_FAILURE_REASONS } from '../src/entries/internal';

/** The code of every entry of the site's "Error codes" page (`### CODE {#CODE}`), in order. */
function codesOnErrorCodesPage(): string[] {
  const page = readFileSync(new URL('../../../site/troubleshooting/error-codes.md', import.meta.url), 'utf8');
  return [...page.matchAll(/^### ([A-Z0-9_]+) \{#\1\}$/gm)].map((match) => match[1]!);
}

describe('PaymentErrorCode', () => {
  const codes = Object.values(PaymentErrorCode);

  it('names each code by itself', () => {
    for (const [name, code] of Object.entries(PaymentErrorCode)) expect(code).toBe(name);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("is listed whole on the site's error codes page, each code once and no other", () => {
    const listed = codesOnErrorCodesPage();
    expect(listed.filter((code, i) => listed.indexOf(code) !== i), 'listed twice').toEqual([]);
    expect(codes.filter((code) => !listed.includes(code)), 'missing from site/troubleshooting/error-codes.md').toEqual([]);
    expect(listed.filter((code) => !(codes as string[]).includes(code)), 'not a PaymentErrorCode').toEqual([]);
  });

  it('holds the code of every webhook failure reason', () => {
    for (const reason of WEBHOOK_FAILURE_REASONS) {
      const { code } = new WebhookVerificationError(reason, 'refused');
      expect(PaymentErrorCode[code]).toBe(`WEBHOOK_${reason.toUpperCase()}`);
    }
  });
});
