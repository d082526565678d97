import * as z from 'zod/mini';
import { referenceOrderIdSchema } from '../schemas/fields';
import { isFinalState } from './attempt';
import type { OrderAttempt } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';
import type { OrderRefusal } from './refusals';
import type { CancelCheckoutResult } from '../types/cancel-checkout';
import { checkAttempt, closeHostedAttempt, recoverLostSession } from './service-check';

export const cancelCheckoutSchema = z.object({ referenceOrderId: referenceOrderIdSchema });

const REASON = 'the merchant cancelled the checkout';

function alreadyPaid(attempt: OrderAttempt): CancelCheckoutResult {
  return attempt.transactionId === undefined ? { outcome: 'already-paid' } : { outcome: 'already-paid', transactionId: attempt.transactionId };
}

/** A hosted session the shopper may still pay (or whose creation or payment is not known yet). */
function mayBeOpen(attempt: OrderAttempt | undefined): attempt is OrderAttempt {
  return attempt?.kind === 'hosted' && (attempt.state === 'open' || attempt.state === 'pending');
}

/**
 * The attempt with its session named. A session whose creation answer was
 * lost is asked for again under its own id: the service answers the session
 * it opened, or opens it now, so that a request still on its way finds it
 * and can open no other; either way it is then expired.
 */
async function withSession(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<OrderAttempt> {
  if (attempt.sessionId !== undefined) return attempt;
  const checked = await checkAttempt(deps, attempt);
  if (isFinalState(checked.attempt.state)) return checked.attempt;
  return (await recoverLostSession(deps, attempt)) ?? attempt;
}

/**
 * Ends the order's open hosted session (an abandoned checkout); run under the
 * order's lock. The session is expired with the service and its attempt
 * recorded closed, so the next POST /checkout starts a new one. A session the
 * service reports paid answers `already-paid` and nothing is expired; a
 * session the service refuses to expire while it reports it still open is
 * refused `not-cancelled`.
 */
export async function cancelOpenCheckout(deps: OrderGuardDeps, referenceOrderId: string): Promise<CancelCheckoutResult | OrderRefusal> {
  const stored = await deps.store.get(referenceOrderId);
  if (stored?.state === 'succeeded') return alreadyPaid(stored);
  if (!mayBeOpen(stored)) return { outcome: 'no-open-checkout' };
  const attempt = await withSession(deps, stored);
  const { sessionId, transactionRequestId } = attempt;
  if (attempt.state === 'succeeded') return alreadyPaid(attempt);
  if (isFinalState(attempt.state)) return { outcome: 'no-open-checkout' };
  if (sessionId === undefined) return { outcome: 'may-be-open', transactionRequestId };
  const closed = (await closeHostedAttempt(deps, attempt, REASON)).attempt;
  const fields = { referenceOrderId, transactionRequestId, state: closed.state };
  switch (closed.state) {
    case 'closed':
      deps.logger.info(fields, 'checkout cancelled: the order’s hosted session was expired');
      return { outcome: 'cancelled', sessionId };
    case 'succeeded':
      return alreadyPaid(closed);
    case 'failed':
      return { outcome: 'no-open-checkout' };
    default:
      deps.logger.warn(fields, 'the service refused to expire the order’s hosted session and reports it still open');
      return { refused: 'not-cancelled' };
  }
}
