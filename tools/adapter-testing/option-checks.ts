import { PaymentValidationError, type ValidationIssue } from '@paymount/core';
import { describe, expect, it } from 'vitest';

/** Options that pass every rule; each test spoils some of them. Nothing is created: the checks fail first. */
const GOOD_OPTIONS = {
  client: { baseUrl: 'https://pay.example.com', apiKey: 'sk_test_0123456789abcdefghijklmnopqrstuv', appId: 'app-1', merchantId: 'merchant-1' },
  resolveOrder: () => null,
  webhook: { secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
};

/** One of an adapter's own options: a slip of its name, and a value of the wrong type with what the refusal says. */
export interface OwnOptionCase {
  name: string;
  misspelt: string;
  wrongValue: unknown;
  /** What the issue at `name` says the option must be. */
  mustBe: string;
}

async function refusalOf(create: () => unknown): Promise<PaymentValidationError> {
  try {
    await create();
  } catch (error) {
    if (error instanceof PaymentValidationError) return error;
    throw error;
  }
  throw new Error('the options were accepted: no PaymentValidationError');
}

/**
 * What every adapter's options are held to, through the adapter's own entry
 * (`create` builds whatever the adapter builds from options): a misspelt
 * routes option and client option are named with the closest known name; each
 * of the adapter's own options (`own`) is a known name too, so its slip is
 * answered with it, and a value of the wrong type is refused in paymount's
 * words; every issue comes in the one error.
 */
export function describeOptionChecks(adapter: string, create: (options: Record<string, unknown>) => unknown, own: readonly OwnOptionCase[]): void {
  describe(`${adapter}: the options, checked in one error`, () => {
    it("names the closest option for a slip, the adapter's own options among them, and refuses a wrong type of its own in paymount's words", async () => {
      const spoilt: Record<string, unknown> = {
        ...GOOD_OPTIONS,
        client: { ...GOOD_OPTIONS.client, timeoutMS: 5_000 },
        notifyURL: 'https://shop.example.com/payments/webhook',
      };
      for (const option of own) Object.assign(spoilt, { [option.misspelt]: 'x', [option.name]: option.wrongValue });
      const error = await refusalOf(() => create(spoilt));
      const expected: ValidationIssue[] = [
        { path: 'notifyURL', rule: 'unknown_field', message: 'is not an option; did you mean `notifyUrl`?' },
        { path: 'client.timeoutMS', rule: 'unknown_field', message: 'is not an option; did you mean `timeoutMs`?' },
        ...own.flatMap((option) => [
          { path: option.misspelt, rule: 'unknown_field', message: `is not an option; did you mean \`${option.name}\`?` },
          { path: option.name, rule: expect.any(String) as string, message: option.mustBe },
        ]),
      ];
      expect(error.issues).toEqual(expect.arrayContaining(expected));
      expect(error.issues).toHaveLength(expected.length);
      expect(error.message).not.toMatch(/Invalid input|is not a function/);
    });
  });
}
