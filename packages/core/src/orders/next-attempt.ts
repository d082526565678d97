import { PaymentErrorCode } from '../error-codes';
import { PaymentValidationError } from '../errors';
import { PaymentRouteError } from '../routes/route-error';
import { isFinalState, type OrderAttempt, type OrderAttemptKind, type OrderAttemptState } from './attempt';
import type { OrderDeps } from './order-lock';
import { checkAttempt, closeHostedAttempt, type CheckedAttempt, type ServiceCheckDeps } from './service-check';

/** What a payment route does next for an order, decided under its lock from the order's current attempt. */
export type OrderDecision =
  /** Its hosted session is open and unexpired: answer it again (checkout only). */
  | { next: 'reuse'; attempt: OrderAttempt; checkoutUrl: string; expiresAt: number }
  /** Already paid: answer so, charge nothing. */
  | { next: 'paid'; attempt: OrderAttempt }
  /** Its last attempt's outcome is not known yet: charge nothing until it is. */
  | { next: 'pending'; attempt: OrderAttempt }
  /** A new attempt may go out, with this transactionRequestId. `previous` is restored should nothing be sent. */
  | { next: 'send'; transactionRequestId: string; previous: OrderAttempt | undefined };

export interface NextAttemptDeps extends ServiceCheckDeps {
  generateId: () => string;
}

/**
 * Brings the order's attempt up to date where the service must be asked
 * first: a pending one is queried; an open hosted session is ended before it
 * is replaced (a wallet payment, or a checkout once it expired), so that it
 * can no longer charge the order too.
 */
async function upToDate(deps: NextAttemptDeps, attempt: OrderAttempt, kind: OrderAttemptKind): Promise<CheckedAttempt> {
  if (isFinalState(attempt.state)) return { attempt };
  if (attempt.state === 'pending') return checkAttempt(deps, attempt);
  if (kind === 'hosted' && attempt.expiresAt !== undefined && deps.orders.clock.now() < attempt.expiresAt) return { attempt };
  return closeHostedAttempt(deps, attempt);
}

/**
 * The decision for a `kind` payment of the order, under its lock. After a
 * `pending` attempt the service is asked first: `S` is answered as paid, `I`
 * and `P` stay pending, and only `F` and `C` (or an attempt the service never
 * received) let a new one go out.
 */
export async function decideNextAttempt(deps: NextAttemptDeps, referenceOrderId: string, kind: OrderAttemptKind): Promise<OrderDecision> {
  const stored = await deps.orders.store.get(referenceOrderId);
  const checked: CheckedAttempt = stored === undefined ? { attempt: undefined, voided: undefined } : await upToDate(deps, stored, kind);
  const { attempt } = checked;
  if (attempt === undefined || attempt.state === 'failed' || attempt.state === 'closed') {
    // One the service never received goes out again under its own id: should it arrive after all, the service answers it once.
    const voided = checked.attempt === undefined ? checked.voided : undefined;
    const transactionRequestId = voided?.kind === kind ? voided.transactionRequestId : deps.generateId();
    return { next: 'send', transactionRequestId, previous: attempt };
  }
  if (attempt.state === 'succeeded') return { next: 'paid', attempt };
  const { checkoutUrl, expiresAt } = attempt;
  const unexpired = expiresAt !== undefined && deps.orders.clock.now() < expiresAt;
  if (kind === 'hosted' && attempt.state === 'open' && checkoutUrl !== undefined && unexpired) {
    return { next: 'reuse', attempt, checkoutUrl, expiresAt };
  }
  // A session created whose answer was lost: asked for again under its id, the service answers that same session.
  if (kind === 'hosted' && attempt.kind === 'hosted' && attempt.state === 'pending') {
    return { next: 'send', transactionRequestId: attempt.transactionRequestId, previous: attempt };
  }
  return { next: 'pending', attempt };
}

/** Seconds after which a pending payment is worth asking about again. */
export const PAYMENT_PENDING_RETRY_AFTER_SECONDS = 5;

/** Answers to a payment request that sends nothing because of the order's last attempt. */
export const orderRefusals = {
  alreadyPaid: () => new PaymentRouteError(409, PaymentErrorCode.ORDER_ALREADY_PAID, 'This order is already paid.'),
  pending: () =>
    new PaymentRouteError(
      409,
      PaymentErrorCode.PAYMENT_PENDING,
      "The order's last payment is still being processed; nothing was sent. Its outcome is known shortly.",
      { retryAfterSeconds: PAYMENT_PENDING_RETRY_AFTER_SECONDS },
    ),
};

/** The fields a call's result sets on its attempt. */
export type AttemptOutcome = { state: OrderAttemptState } & Partial<Pick<OrderAttempt, 'sessionId' | 'checkoutUrl' | 'expiresAt' | 'transactionId'>>;

/**
 * Sends a new attempt: recorded `pending` under its transactionRequestId
 * before the call goes out (a store failure here is a 503 and nothing is
 * sent), then updated with the call's outcome. A call that throws leaves the
 * attempt pending, since the service may have received it; only a request
 * refused before sending (PaymentValidationError) gives the order back its
 * previous attempt. Recording the outcome is best effort: an attempt left
 * pending is asked about by the next request, never paid twice.
 */
export async function sendAttempt<R>(
  deps: OrderDeps,
  decision: Extract<OrderDecision, { next: 'send' }>,
  attempt: { referenceOrderId: string; kind: OrderAttemptKind },
  call: (transactionRequestId: string) => Promise<R>,
  outcomeOf: (result: R) => AttemptOutcome,
): Promise<R> {
  const sent: OrderAttempt = {
    ...attempt,
    transactionRequestId: decision.transactionRequestId,
    state: 'pending',
    updatedAt: deps.clock.now(),
  };
  await deps.store.put(sent, deps.attemptTtlMs);
  let result: R;
  try {
    result = await call(decision.transactionRequestId);
  } catch (error) {
    if (error instanceof PaymentValidationError) await restore(deps, decision.previous, attempt.referenceOrderId);
    throw error;
  }
  try {
    await deps.store.put({ ...sent, ...outcomeOf(result), updatedAt: deps.clock.now() }, deps.attemptTtlMs);
  } catch (error) {
    deps.logger.warn(
      { referenceOrderId: attempt.referenceOrderId, transactionRequestId: sent.transactionRequestId, err: error },
      'order attempt store: the outcome of a payment call could not be recorded; the attempt stays pending and the next request asks the service',
    );
  }
  return result;
}

async function restore(deps: OrderDeps, previous: OrderAttempt | undefined, referenceOrderId: string): Promise<void> {
  try {
    if (previous) await deps.store.put(previous, deps.attemptTtlMs);
    else await deps.store.delete(referenceOrderId);
  } catch (error) {
    // Left pending: the next request asks the service, finds nothing, and goes on.
    deps.logger.warn({ referenceOrderId, err: error }, 'order attempt store: an attempt refused before sending could not be undone');
  }
}
