// An attempt's state rules and the schema a stored one is read back with.
import * as z from 'zod/mini';
import { type FinalOrderAttemptState, ORDER_ATTEMPT_STATES, type OrderAttempt, type OrderAttemptState, type OrderAttemptUpdate } from '../shared/types';

/** Final: the service will not change it any more. */
export function isFinalState(state: OrderAttemptState): state is FinalOrderAttemptState {
  return state === 'succeeded' || state === 'failed' || state === 'closed';
}

/** Not final, or final but its outcome not yet handed to the merchant's handlers: what reconciliation looks at. */
export function isUnsettled(attempt: OrderAttempt): boolean {
  return attempt.handledState !== attempt.state;
}

/**
 * `update` applied to `current`, or undefined when it must not apply: a
 * success is never undone by a later (or late-arriving) outcome.
 */
export function settledAttempt(current: OrderAttempt, update: OrderAttemptUpdate): OrderAttempt | undefined {
  if (current.state === 'succeeded' && update.state !== 'succeeded') return undefined;
  const settled: OrderAttempt = { ...current, state: update.state, updatedAt: update.updatedAt };
  if (update.transactionId !== undefined) settled.transactionId = update.transactionId;
  if (update.handled && isFinalState(update.state)) settled.handledState = update.state;
  return settled;
}

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
