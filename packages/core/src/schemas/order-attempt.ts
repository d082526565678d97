// The schema a stored order attempt is read back with, by the stores of other packages (`@paymount/core/stores`);
// apart from orders/store.ts so that the root entry's declarations, which name the store interface, import no zod.
import * as z from 'zod/mini';
import { ORDER_ATTEMPT_STATES } from '../shared/types';

const text = z.string().check(z.minLength(1));
const wholeNonNegative = z.number().check(z.int(), z.nonnegative());

/** An attempt as a store reads it back: what a shared store holds is checked, not trusted. */
export const orderAttemptSchema = z.object({
  referenceOrderId: text,
  kind: z.enum(['hosted', 'wallet']),
  transactionRequestId: text,
  sequence: z.optional(wholeNonNegative),
  state: z.enum(ORDER_ATTEMPT_STATES),
  amount: z.optional(wholeNonNegative),
  currency: z.optional(text),
  inFlightUntil: z.optional(wholeNonNegative),
  sessionId: z.optional(text),
  checkoutUrl: z.optional(text),
  expiresAt: z.optional(wholeNonNegative),
  transactionId: z.optional(text),
  handledState: z.optional(z.enum(['succeeded', 'failed', 'closed'])),
  updatedAt: wholeNonNegative,
});
