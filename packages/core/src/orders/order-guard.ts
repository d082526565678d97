// The guard itself: checkout, wallet pay, status, cancel, reconcile under the order's lock.
import * as z from 'zod/mini';
import type { CheckoutSession, CheckoutSessionInput, DirectPaymentInput, DirectPaymentResult } from '../client/types';
import { referenceOrderIdSchema } from '../schemas/fields';
import { merchantOrderSchema } from '../schemas/requests';
import type { CancelCheckoutResult, MerchantOrder, OrderAttempt, ReconcileOptions, ReconcileSummary } from '../shared/types';
import { validate } from '../shared/validation';
import { isFinalState } from './store';
import {
  checkAttempt,
  closeHostedAttempt,
  decideNextAttempt,
  inProgress,
  isRefusal,
  notPayable,
  orderCharge,
  type OrderCharge,
  type OrderGuardDeps,
  type OrderRefusal,
  recoverLostSession,
  type RequestFor,
  sendAttempt,
  underOrderLock,
} from './next-attempt';
import { reconcileAttempt, reconcileWindow } from './reconcile';

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

/** The order's hosted session as a checkout answers it; `reused` when an earlier request opened it. */
export type OrderSession = Pick<CheckoutSession, 'checkoutUrl' | 'expiresAt' | 'transactionRequestId' | 'sessionId'> & {
  traceId?: string;
  reused: boolean;
};

/**
 * One order, one charge: every payment, status check, cancellation and
 * reconciliation of an order runs here, under the order's lock, as lock →
 * decide (from the order's current attempt, asking the service where it must)
 * → send → record. What it will not do it answers as an OrderRefusal, with
 * nothing sent; the caller chooses the response.
 */
export interface OrderGuard {
  /**
   * The order's hosted session: its open, unexpired session again (two tabs,
   * a reload) when it was opened for the order's amount, else a new one (the
   * old one ended first). A paid order, or one whose last payment is still
   * pending, gets none. An order breaking a rule of the request made from
   * it (a decimal amount) throws PaymentValidationError before any store call,
   * as payWallet does.
   */
  checkout(order: MerchantOrder, request: RequestFor<CheckoutSessionInput>): Promise<OrderSession | OrderRefusal>;
  /**
   * The order when a payment of it may be asked for at all, else the refusal
   * every payment of it gets (the merchant says it takes none): for a route
   * that prepares a payment without making one (the wallet configuration).
   */
  payable(order: MerchantOrder): MerchantOrder | OrderRefusal;
  /** A direct wallet payment of the order. */
  payWallet(order: MerchantOrder, request: RequestFor<DirectPaymentInput>): Promise<DirectPaymentResult | OrderRefusal>;
  /**
   * The order's attempt, asked about again when it is not final and has not
   * been checked for STATUS_REFRESH_INTERVAL_MS. While a payment holds the
   * order's lock, the stored attempt is answered. An order breaking a rule
   * of the requests made from it throws PaymentValidationError first, as a
   * payment of it does: no store is asked about an order it could never hold.
   */
  status(order: MerchantOrder): Promise<OrderAttempt | undefined>;
  /** Ends the order's open hosted session (see cancelOpenCheckout). */
  cancel(referenceOrderId: string): Promise<CancelCheckoutResult | OrderRefusal>;
  /**
   * Settles the attempts a webhook has not: asks the service about every
   * unsettled attempt (pending, an open session, or a final outcome the
   * handlers have not seen) unchanged for `olderThanMs`, and hands each final
   * outcome to the handlers.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
}

/** A page polling the status of an unsettled order asks the service at most this often about it. */
const STATUS_REFRESH_INTERVAL_MS = 5_000;

/**
 * How many of the order's ids a checkout tries in one request. More than one
 * only after the order's record was lost: the service then answers each id it
 * used before with the session it opened then, long expired.
 */
const MAX_SESSION_IDS_PER_CHECKOUT = 5;

/**
 * Before any store call: the store then never sees an order the service
 * would refuse, and the mistake is the same INVALID_ORDER on every store
 * (PostgreSQL would fail on a decimal amount, answered as an outage).
 */
function checkOrder(order: MerchantOrder): void {
  validate(merchantOrderSchema, order, 'order from resolveOrder');
}

/**
 * A payment of the order: refused when the merchant says it takes no payment,
 * thrown (PaymentValidationError) when the order breaks a rule of the request
 * made from it, else `work` under the order's lock.
 */
async function underPaymentLock<T>(
  deps: OrderGuardDeps,
  order: MerchantOrder,
  work: (charge: OrderCharge) => Promise<T | OrderRefusal>,
): Promise<T | OrderRefusal> {
  const refusal = notPayable(order);
  if (refusal !== undefined) return refusal;
  checkOrder(order);
  const charge = orderCharge(order);
  return underOrderLock(deps, charge.referenceOrderId, () => work(charge), () => inProgress);
}

async function nextSession(deps: OrderGuardDeps, charge: OrderCharge, request: RequestFor<CheckoutSessionInput>): Promise<OrderSession | OrderRefusal> {
  const decision = await decideNextAttempt(deps, charge, 'hosted');
  if (isRefusal(decision)) return decision;
  if (decision.next === 'reuse') {
    const { checkoutUrl, expiresAt, attempt } = decision;
    return {
      checkoutUrl,
      expiresAt: new Date(expiresAt),
      transactionRequestId: attempt.transactionRequestId,
      ...(attempt.sessionId === undefined ? {} : { sessionId: attempt.sessionId }),
      reused: true,
    };
  }
  const session = await sendAttempt(deps, decision, { charge, kind: 'hosted' }, {
    request,
    send: (input) => deps.client.createCheckoutSession(input),
    outcomeOf: (created) => ({
      // An expiresAt already past: the service answered this id with a session it opened before, now over.
      state: created.expiresAt.getTime() > deps.clock.now() ? 'open' : 'closed',
      checkoutUrl: created.checkoutUrl,
      expiresAt: created.expiresAt.getTime(),
      ...(created.sessionId === undefined ? {} : { sessionId: created.sessionId }),
    }),
  });
  return { ...session, reused: false };
}

async function sessionFor(deps: OrderGuardDeps, charge: OrderCharge, request: RequestFor<CheckoutSessionInput>): Promise<OrderSession | OrderRefusal> {
  for (let tried = 1; ; tried += 1) {
    const session = await nextSession(deps, charge, request);
    if (isRefusal(session) || session.expiresAt.getTime() > deps.clock.now() || tried === MAX_SESSION_IDS_PER_CHECKOUT) return session;
  }
}

async function walletPayment(deps: OrderGuardDeps, charge: OrderCharge, request: RequestFor<DirectPaymentInput>): Promise<DirectPaymentResult | OrderRefusal> {
  const decision = await decideNextAttempt(deps, charge, 'wallet');
  if (isRefusal(decision)) return decision;
  return sendAttempt(deps, decision, { charge, kind: 'wallet' }, {
    request,
    send: (input) => deps.client.directPayment(input),
    outcomeOf: (paid) => ({ state: paid.status, ...(paid.transactionId === undefined ? {} : { transactionId: paid.transactionId }) }),
  });
}

function isStale(deps: OrderGuardDeps, attempt: OrderAttempt | undefined): attempt is OrderAttempt {
  return attempt !== undefined && !isFinalState(attempt.state) && deps.clock.now() - attempt.updatedAt >= STATUS_REFRESH_INTERVAL_MS;
}

async function status(deps: OrderGuardDeps, referenceOrderId: string): Promise<OrderAttempt | undefined> {
  const stored = await deps.store.get(referenceOrderId);
  if (!isStale(deps, stored)) return stored;
  return underOrderLock(
    deps,
    referenceOrderId,
    async () => {
      const current = await deps.store.get(referenceOrderId);
      return isStale(deps, current) ? (await checkAttempt(deps, current)).attempt : current;
    },
    () => stored,
  );
}

async function cancel(deps: OrderGuardDeps, referenceOrderId: string): Promise<CancelCheckoutResult | OrderRefusal> {
  validate(cancelCheckoutSchema, { referenceOrderId }, 'cancelCheckout request');
  return underOrderLock(deps, referenceOrderId, () => cancelOpenCheckout(deps, referenceOrderId), () => inProgress);
}

async function reconcile(deps: OrderGuardDeps, { olderThanMs, limit }: Required<ReconcileOptions>): Promise<ReconcileSummary> {
  const attempts = await deps.store.unsettled({ changedBefore: deps.clock.now() - olderThanMs, limit });
  const summary: ReconcileSummary = { checked: 0, settled: 0, stillPending: 0, errors: 0 };
  for (const attempt of attempts) {
    const { referenceOrderId, transactionRequestId } = attempt;
    try {
      const outcome = await underOrderLock(deps, referenceOrderId, () => reconcileAttempt(deps, attempt), () => 'stillPending' as const);
      if (outcome === undefined) continue;
      summary.checked += 1;
      summary[outcome] += 1;
    } catch (error) {
      summary.checked += 1;
      summary.errors += 1;
      deps.logger.error(
        { referenceOrderId, transactionRequestId, err: error },
        'reconciliation could not settle an order’s payment attempt; the next run tries again',
      );
    }
  }
  deps.logger.info(summary, 'reconciliation run');
  return summary;
}

/** A run asked for, under way or waiting for the one before it to end. */
interface ReconcileRun {
  /** Its options, checked and defaulted, as one string: calls with equal options join the run. */
  options: string;
  summary: Promise<ReconcileSummary>;
}

/**
 * One run at a time per guard. A scheduler's tick that comes while a run is
 * still asking a slow service joins that run (same options) instead of asking
 * the service about the same attempts again: ticks stacked up behind an
 * outage would multiply the load on a service already failing to answer.
 * A run with other options waits for the one under way, then runs.
 */
function oneRunAtATime(deps: OrderGuardDeps): (options?: ReconcileOptions) => Promise<ReconcileSummary> {
  let last: ReconcileRun | undefined;
  return async (options = {}) => {
    const window = reconcileWindow(options);
    const key = `${window.olderThanMs}/${window.limit}`;
    if (last?.options === key) return last.summary;
    const before = last?.summary.catch(() => undefined);
    const run: ReconcileRun = { options: key, summary: Promise.resolve(before).then(() => reconcile(deps, window)) };
    last = run;
    const ended = () => {
      if (last === run) last = undefined;
    };
    run.summary.then(ended, ended);
    return run.summary;
  };
}

export function createOrderGuard(deps: OrderGuardDeps): OrderGuard {
  return {
    payable: (order) => notPayable(order) ?? order,
    checkout: (order, request) => underPaymentLock(deps, order, (charge) => sessionFor(deps, charge, request)),
    payWallet: (order, request) => underPaymentLock(deps, order, (charge) => walletPayment(deps, charge, request)),
    status: async (order) => {
      checkOrder(order);
      return status(deps, order.referenceOrderId);
    },
    cancel: (referenceOrderId) => cancel(deps, referenceOrderId),
    reconcile: oneRunAtATime(deps),
  };
}
