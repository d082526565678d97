import { z } from 'zod';
import { fromMinorUnits, PaymentValidationError, toMinorUnits } from '@paymount/core';
import { validate } from '@paymount/core/schemas';
import { refundableAmount, type Order } from './orders';

/** What the back office's refund forms post: `full`, or `partial` with an amount typed in major units. */
const refundFormSchema = z.object({
  scope: z.enum(['full', 'partial'], { error: 'must be "full" or "partial"' }),
  amount: z.string().max(32, 'is too long').optional(),
});

export interface RefundRequestAmount {
  scope: 'full' | 'partial';
  /** Minor units. */
  amount: number;
}

function refused(rule: string, message: string): PaymentValidationError {
  return new PaymentValidationError('refund', [{ path: 'amount', rule, message }]);
}

/** The typed amount in minor units, the currency's own exponent deciding how many decimals it may have. */
function typedAmount(text: string | undefined, currency: string): number {
  if (text === undefined || text.trim() === '') throw refused('required', 'enter the amount to refund, e.g. 5.00');
  try {
    return toMinorUnits(text, currency);
  } catch (error) {
    if (!(error instanceof PaymentValidationError)) throw error;
    throw new PaymentValidationError(
      'refund',
      error.issues.map((issue) => ({ ...issue, path: 'amount' })),
    );
  }
}

/**
 * How much a refund form asks to give back, in minor units, checked against
 * what remains refundable: `full` is all of it, `partial` the amount typed,
 * which must be more than 0 and at most what remains. Throws
 * PaymentValidationError (path `amount`) before anything is sent.
 */
export function refundAmountFrom(form: unknown, order: Order): RefundRequestAmount {
  const { scope, amount } = validate(refundFormSchema, form, 'refund form');
  const remaining = refundableAmount(order);
  if (remaining === 0) throw refused('nothing_refundable', 'nothing of this order remains to refund');
  if (scope === 'full') return { scope, amount: remaining };
  const minor = typedAmount(amount, order.currency);
  if (minor === 0) throw refused('positive', 'must be more than 0');
  if (minor > remaining) {
    throw refused('max_refundable', `must be at most ${fromMinorUnits(remaining, order.currency)} ${order.currency}, what remains refundable`);
  }
  return { scope, amount: minor };
}
