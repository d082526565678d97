import { PaymentErrorCode } from '../error-codes';
import { PaymentValidationError } from '../errors';
import { PaymentRouteError } from '../routes/route-error';
import type { MerchantOrder } from '../routes/types';
import { payableTotal } from '../schemas/amount';
import { isFinalState, type OrderAttempt, type OrderAttemptKind, type OrderAttemptState } from './attempt';
import type { OrderDeps } from './order-lock';
import {
  checkAttempt,
  closeHostedAttempt,
  inFlightUntil,
  recoverLostSession,
  type CheckedAttempt,
  type ServiceCheckDeps,
} from './service-check';

/** What a payment route does next for an order, decided under its lock from the order's current attempt. */
export type OrderDecision =
  /** Its hosted session is open, unexpired and for the order's amount: answer it again (checkout only). */
  | { next: 'reuse'; attempt: OrderAttempt; checkoutUrl: string; expiresAt: number }
  /** Already paid: answer so, charge nothing. */
  | { next: 'paid'; attempt: OrderAttempt }
  /** Its last attempt's outcome is not known yet: charge nothing until it is. */
  | { next: 'pending'; attempt: OrderAttempt; retryAfterSeconds: number }
  /**
   * An attempt may go out, with this transactionRequestId (the order's
   * attempt number `sequence`). `previous` is restored should nothing be sent.
   */
  | { next: 'send'; transactionRequestId: string; sequence: number; previous: OrderAttempt | undefined };

/** The order as the guard weighs it: what it is to be charged, from the merchant's server. */
export interface OrderCharge {
  referenceOrderId: string;
  /** Payable total, minor units. */
  amount: number;
  currency: string;
}

export function orderCharge(order: MerchantOrder): OrderCharge {
  return { referenceOrderId: order.referenceOrderId, amount: payableTotal(order.amount), currency: order.amount.priceCurrency };
}

/** Whether the attempt was made for this charge; one recorded before attempts kept their amount counts as the order's. */
function isFor(attempt: OrderAttempt, charge: OrderCharge): boolean {
  return (attempt.amount ?? charge.amount) === charge.amount && (attempt.currency ?? charge.currency) === charge.currency;
}

/** Seconds after which a pending payment is worth asking about again. */
export const PAYMENT_PENDING_RETRY_AFTER_SECONDS = 5;

/**
 * Brings the order's attempt up to date where the service must be asked
 * first: a pending one is queried; an open hosted session is ended before it
 * is replaced (a wallet payment, a checkout once it expired or once the
 * order's amount changed), so that it can no longer charge the order too. A
 * session whose creation answer was lost is named again and ended the same way.
 */
async function upToDate(deps: ServiceCheckDeps, attempt: OrderAttempt, kind: OrderAttemptKind, charge: OrderCharge): Promise<CheckedAttempt> {
  if (isFinalState(attempt.state)) return { attempt };
  const reusable = (candidate: OrderAttempt) =>
    kind === 'hosted' && isFor(candidate, charge) && (candidate.state === 'pending' || (candidate.expiresAt !== undefined && deps.orders.clock.now() < candidate.expiresAt));
  if (attempt.state === 'open') return reusable(attempt) ? { attempt } : closeHostedAttempt(deps, attempt);
  const checked = await checkAttempt(deps, attempt);
  const lostSession = attempt.kind === 'hosted' && attempt.sessionId === undefined && checked.details !== undefined && checked.attempt.state === 'pending';
  if (!lostSession || reusable(checked.attempt)) return checked;
  const recovered = await recoverLostSession(deps, checked.attempt);
  return recovered === undefined ? checked : closeHostedAttempt(deps, recovered);
}

function nextSequence(deps: ServiceCheckDeps, attempt: OrderAttempt): number {
  const sequence = attempt.sequence ?? deps.orders.requestIds.sequenceOf(attempt.referenceOrderId, attempt.transactionRequestId);
  // An attempt recorded before ids were derived had a random one: the order's derived ids start afresh.
  return sequence === undefined ? 0 : sequence + 1;
}

function send(deps: ServiceCheckDeps, referenceOrderId: string, sequence: number, previous: OrderAttempt | undefined): OrderDecision {
  return { next: 'send', transactionRequestId: deps.orders.requestIds.idOf(referenceOrderId, sequence), sequence, previous };
}

/**
 * The decision for a `kind` payment of the order, under its lock.
 * - No attempt recorded: the order's first derived id, so that an attempt
 *   whose record was lost is answered by the service, not made again.
 * - After a `pending` attempt the service is asked first: `S` is answered as
 *   paid, `I` and `P` stay pending, and only `F` and `C` let the order's next
 *   id go out.
 * - An attempt the service does not know (yet) whose request may still reach
 *   it is never replaced: the order's next payment, of either kind, goes out
 *   under that same id (the service runs one request per id and refuses one
 *   of another operation), and only for the amount it was made for.
 */
export async function decideNextAttempt(deps: ServiceCheckDeps, charge: OrderCharge, kind: OrderAttemptKind): Promise<OrderDecision> {
  const { referenceOrderId } = charge;
  const stored = await deps.orders.store.get(referenceOrderId);
  if (stored === undefined) return send(deps, referenceOrderId, 0, undefined);
  const { attempt, inFlight } = await upToDate(deps, stored, kind, charge);
  const now = deps.orders.clock.now();
  if (inFlight === true) {
    if (isFor(attempt, charge)) {
      const sequence = attempt.sequence ?? deps.orders.requestIds.sequenceOf(referenceOrderId, attempt.transactionRequestId) ?? 0;
      return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence, previous: attempt };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((inFlightUntil(deps.orders, attempt) - now) / 1000));
    return { next: 'pending', attempt, retryAfterSeconds };
  }
  if (attempt.state === 'failed' || attempt.state === 'closed') return send(deps, referenceOrderId, nextSequence(deps, attempt), attempt);
  if (attempt.state === 'succeeded') return { next: 'paid', attempt };
  const { checkoutUrl, expiresAt } = attempt;
  if (kind === 'hosted' && attempt.state === 'open' && checkoutUrl !== undefined && expiresAt !== undefined && now < expiresAt) {
    return { next: 'reuse', attempt, checkoutUrl, expiresAt };
  }
  // A session created whose answer was lost: asked for again under its id, the service answers that same session.
  if (kind === 'hosted' && attempt.kind === 'hosted' && attempt.state === 'pending' && isFor(attempt, charge)) {
    return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence: attempt.sequence ?? 0, previous: attempt };
  }
  return { next: 'pending', attempt, retryAfterSeconds: PAYMENT_PENDING_RETRY_AFTER_SECONDS };
}

/** Answers to a payment request that sends nothing because of the order's last attempt. */
export const orderRefusals = {
  alreadyPaid: () => new PaymentRouteError(409, PaymentErrorCode.ORDER_ALREADY_PAID, 'This order is already paid.'),
  pending: (retryAfterSeconds = PAYMENT_PENDING_RETRY_AFTER_SECONDS) =>
    new PaymentRouteError(
      409,
      PaymentErrorCode.PAYMENT_PENDING,
      "The order's last payment is still being processed; nothing was sent. Its outcome is known shortly.",
      { retryAfterSeconds },
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
  attempt: { charge: OrderCharge; kind: OrderAttemptKind },
  call: (transactionRequestId: string) => Promise<R>,
  outcomeOf: (result: R) => AttemptOutcome,
): Promise<R> {
  const { charge, kind } = attempt;
  const now = deps.clock.now();
  const sent: OrderAttempt = {
    referenceOrderId: charge.referenceOrderId,
    kind,
    transactionRequestId: decision.transactionRequestId,
    sequence: decision.sequence,
    state: 'pending',
    amount: charge.amount,
    currency: charge.currency,
    // A request reused from an earlier attempt may reach the service as late as that one could.
    inFlightUntil: Math.max(now + deps.lateArrivalMs, decision.previous?.transactionRequestId === decision.transactionRequestId ? (decision.previous.inFlightUntil ?? 0) : 0),
    updatedAt: now,
  };
  await deps.store.put(sent, deps.attemptTtlMs);
  let result: R;
  try {
    result = await call(decision.transactionRequestId);
  } catch (error) {
    if (error instanceof PaymentValidationError) await restore(deps, decision.previous, charge.referenceOrderId);
    throw error;
  }
  try {
    await deps.store.put({ ...sent, ...outcomeOf(result), updatedAt: deps.clock.now() }, deps.attemptTtlMs);
  } catch (error) {
    deps.logger.warn(
      { referenceOrderId: charge.referenceOrderId, transactionRequestId: sent.transactionRequestId, err: error },
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
