import type { MerchantOrder } from '../merchant-order';
import { payableTotal } from '../schemas/amount';
import { isFinalState } from './attempt';
import type { OrderAttempt, OrderAttemptKind } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';
import { PAYMENT_PENDING_RETRY_AFTER_SECONDS, type OrderRefusal } from './refusals';
import { inFlightUntil } from './late-arrival';
import { checkAttempt, closeHostedAttempt, recoverLostSession, type CheckedAttempt } from './service-check';

/** An attempt may go out, with this transactionRequestId (the order's attempt number `sequence`). `previous` is restored should nothing be sent. */
export interface SendDecision {
  next: 'send';
  transactionRequestId: string;
  sequence: number;
  previous: OrderAttempt | undefined;
}

/** A checkout answers the order's open, unexpired hosted session for the order's amount again. */
export interface ReuseDecision {
  next: 'reuse';
  attempt: OrderAttempt;
  checkoutUrl: string;
  expiresAt: number;
}

/** Nothing goes out: the order is paid, or its last attempt's outcome is not known yet. */
export type HoldDecision = Extract<OrderRefusal, { refused: 'already-paid' | 'pending' }>;

/**
 * What a payment of each kind does next for an order, decided under its
 * lock from the order's current attempt: send, or send nothing; a checkout
 * may also answer its session again, a wallet payment never.
 */
export interface OrderDecisions {
  hosted: SendDecision | ReuseDecision | HoldDecision;
  wallet: SendDecision | HoldDecision;
}

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

/**
 * Brings the order's attempt up to date where the service must be asked
 * first: a pending one is queried; an open hosted session is ended before it
 * is replaced (a wallet payment, a checkout once it expired or once the
 * order's amount changed), so that it can no longer charge the order too. A
 * session whose creation answer was lost is named again and ended the same way.
 */
async function upToDate(deps: OrderGuardDeps, attempt: OrderAttempt, kind: OrderAttemptKind, charge: OrderCharge): Promise<CheckedAttempt> {
  if (isFinalState(attempt.state)) return { attempt };
  const reusable = (candidate: OrderAttempt) =>
    kind === 'hosted' && isFor(candidate, charge) && (candidate.state === 'pending' || (candidate.expiresAt !== undefined && deps.clock.now() < candidate.expiresAt));
  if (attempt.state === 'open') return reusable(attempt) ? { attempt } : closeHostedAttempt(deps, attempt);
  const checked = await checkAttempt(deps, attempt);
  const lostSession = attempt.kind === 'hosted' && attempt.sessionId === undefined && checked.details !== undefined && checked.attempt.state === 'pending';
  if (!lostSession || reusable(checked.attempt)) return checked;
  const recovered = await recoverLostSession(deps, checked.attempt);
  return recovered === undefined ? checked : closeHostedAttempt(deps, recovered);
}

async function nextSequence(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<number> {
  const sequence = attempt.sequence ?? (await deps.requestIds.sequenceOf(attempt.referenceOrderId, attempt.transactionRequestId));
  // An attempt recorded before ids were derived had a random one: the order's derived ids start afresh.
  return sequence === undefined ? 0 : sequence + 1;
}

async function send(deps: OrderGuardDeps, referenceOrderId: string, sequence: number, previous: OrderAttempt | undefined): Promise<SendDecision> {
  return { next: 'send', transactionRequestId: await deps.requestIds.idOf(referenceOrderId, sequence), sequence, previous };
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
export async function decideNextAttempt<K extends OrderAttemptKind>(deps: OrderGuardDeps, charge: OrderCharge, kind: K): Promise<OrderDecisions[K]> {
  const { referenceOrderId } = charge;
  const stored = await deps.store.get(referenceOrderId);
  if (stored === undefined) return send(deps, referenceOrderId, 0, undefined);
  const { attempt, inFlight } = await upToDate(deps, stored, kind, charge);
  if (inFlight === true) {
    if (isFor(attempt, charge)) {
      const sequence = attempt.sequence ?? (await deps.requestIds.sequenceOf(referenceOrderId, attempt.transactionRequestId)) ?? 0;
      return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence, previous: attempt };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((inFlightUntil(deps, attempt) - deps.clock.now()) / 1000));
    return { refused: 'pending', retryAfterSeconds };
  }
  if (attempt.state === 'failed' || attempt.state === 'closed') return send(deps, referenceOrderId, await nextSequence(deps, attempt), attempt);
  if (attempt.state === 'succeeded') return { refused: 'already-paid', attempt };
  return UNSETTLED[kind](deps, attempt, charge);
}

const PENDING: HoldDecision = { refused: 'pending', retryAfterSeconds: PAYMENT_PENDING_RETRY_AFTER_SECONDS };

/** The decision on an attempt still open or pending (and no longer in flight), by the kind of payment asked for. */
const UNSETTLED: { [K in OrderAttemptKind]: (deps: OrderGuardDeps, attempt: OrderAttempt, charge: OrderCharge) => OrderDecisions[K] } = {
  hosted(deps, attempt, charge) {
    const { checkoutUrl, expiresAt } = attempt;
    if (attempt.state === 'open' && checkoutUrl !== undefined && expiresAt !== undefined && deps.clock.now() < expiresAt) {
      return { next: 'reuse', attempt, checkoutUrl, expiresAt };
    }
    // A session created whose answer was lost: asked for again under its id, the service answers that same session.
    if (attempt.kind === 'hosted' && attempt.state === 'pending' && isFor(attempt, charge)) {
      return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence: attempt.sequence ?? 0, previous: attempt };
    }
    return PENDING;
  },
  wallet: () => PENDING,
};
