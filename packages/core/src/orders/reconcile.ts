// Events meet orders: the attempt an event pays, settling handled events, reconciling payments and
// refunds.
import * as z from 'zod/mini';
import { payableTotal } from '../schemas/amount';
import { longTransactionRequestIdSchema } from '../schemas/fields';
import { PaymentNotFoundError } from '../shared/errors';
import type { FinalOrderAttemptState, MerchantOrder, OrderAttempt, ReconcileOptions, ReconcileSummary } from '../shared/types';
import { validate } from '../shared/validation';
import { handleEventOnce, queueEvent } from '../webhook-dedupe/handle-event-once';
import type { PaymentClosedEvent, PaymentEvent, PaymentEventAmount, PaymentEventAttempt, PaymentEventType, PaymentFailedEvent, PaymentSucceededEvent } from '../webhooks/event';
import { normalizeEvent } from '../webhooks/normalize-event';
import { isFinalState, isUnsettled } from './store';
import { checkAttempt, type OrderGuardDeps } from './next-attempt';

const STATE_OF_EVENT: Partial<Record<PaymentEventType, FinalOrderAttemptState>> = {
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.closed': 'closed',
};

/**
 * Records on the order's attempt that the merchant's handlers ran for a
 * payment event, if the event is about the order's current attempt (a
 * `payment.closed` of a session replaced by a wallet payment changes nothing).
 * Best effort: an attempt left unsettled is settled by the next
 * reconciliation, whose copy of the event is then a duplicate.
 */
export async function settleHandledEvent(orders: Pick<OrderGuardDeps, 'store' | 'clock' | 'attemptTtlMs' | 'logger'>, event: PaymentEvent): Promise<void> {
  const state = STATE_OF_EVENT[event.type];
  const { referenceOrderId, transactionRequestId, transactionId } = event;
  if (state === undefined || referenceOrderId === undefined || transactionRequestId === undefined) return;
  const update = { state, handled: true, updatedAt: orders.clock.now(), ...(transactionId === undefined ? {} : { transactionId }) };
  try {
    await orders.store.settle(referenceOrderId, transactionRequestId, update, orders.attemptTtlMs);
  } catch (error) {
    orders.logger.warn(
      { referenceOrderId, transactionRequestId, err: error },
      'order attempt store: a handled event could not be recorded on its order; reconciliation will record it',
    );
  }
}

/** The reported total of a payment, or undefined when the service left out a part it needs. */
function totalOf(amount: PaymentEventAmount): number | undefined {
  const { orderAmount, taxAmount = 0, surchargeAmount = 0 } = amount;
  if (typeof orderAmount !== 'number' || typeof taxAmount !== 'number' || typeof surchargeAmount !== 'number') return undefined;
  return payableTotal({ orderAmount, taxAmount, surchargeAmount });
}

/** The webhook route annotates events with the guard's store and ids, not its lock or client. */
type EventAttemptDeps = Pick<OrderGuardDeps, 'store' | 'requestIds'>;

/**
 * Where a payment event stands with the order guard: whether the guard made
 * its attempt (its id is one derived for the order), and whether the event's
 * amount is the one that attempt was made for. Read from the order's record
 * when the event is about its current attempt; a record that cannot be read
 * leaves `amountMatches` unknown, never the event unhandled.
 */
async function attemptOf(orders: EventAttemptDeps, event: OrderPaymentEvent): Promise<PaymentEventAttempt> {
  const { referenceOrderId, transactionRequestId, amount } = event;
  if ((await orders.requestIds.sequenceOf(referenceOrderId, transactionRequestId)) === undefined) return { issued: false };
  const recorded = await orders.store.get(referenceOrderId).catch(() => undefined);
  if (recorded?.transactionRequestId !== transactionRequestId || recorded.amount === undefined) return { issued: true };
  return { issued: true, amountMatches: totalOf(amount) === recorded.amount && amount.priceCurrency === recorded.currency };
}

type OrderPaymentEvent = PaymentSucceededEvent | PaymentFailedEvent | PaymentClosedEvent;

function isOrderPayment(event: PaymentEvent): event is OrderPaymentEvent {
  return event.type === 'payment.succeeded' || event.type === 'payment.failed' || event.type === 'payment.closed';
}

/** The event as handlers get it: a payment event says how it stands with the order's attempts. */
export async function withAttempt(orders: EventAttemptDeps, event: PaymentEvent): Promise<PaymentEvent> {
  return isOrderPayment(event) ? { ...event, attempt: await attemptOf(orders, event) } : event;
}

/**
 * Whether a `payment.succeeded` event pays the order whose amount is
 * `amount`: a payment the routes made for it (`event.attempt.issued` is not
 * false), of its whole payable total, in its currency. What a handler checks
 * before marking an order paid: a payment made outside the app naming the
 * order, or one for an amount the order no longer has, does not pay it.
 */
export function paysOrder(event: PaymentSucceededEvent, amount: MerchantOrder['amount']): boolean {
  return (
    event.attempt?.issued !== false &&
    event.attempt?.amountMatches !== false &&
    totalOf(event.amount) === payableTotal(amount) &&
    event.amount.priceCurrency === amount.priceCurrency
  );
}

export const DEFAULT_RECONCILE_OLDER_THAN_MS = 60_000;
export const DEFAULT_RECONCILE_LIMIT = 100;

const reconcileOptionsSchema = z.strictObject({
  olderThanMs: z.optional(z.number().check(z.int('must be a whole number'), z.nonnegative('must not be negative'))),
  limit: z.optional(
    z.number().check(z.int('must be a whole number'), z.positive('must be greater than 0'), z.lte(10_000, 'must be at most 10000')),
  ),
});

/** The options of a run, checked and defaulted. */
export function reconcileWindow(options: ReconcileOptions): Required<ReconcileOptions> {
  const { olderThanMs = DEFAULT_RECONCILE_OLDER_THAN_MS, limit = DEFAULT_RECONCILE_LIMIT } = validate(
    reconcileOptionsSchema,
    options,
    'reconcile options',
  );
  return { olderThanMs, limit };
}

/** Where one attempt stands after a look at it; undefined when it needed none (settled or replaced since it was listed). */
export type ReconcileOutcome = 'settled' | 'stillPending' | undefined;

/**
 * One unsettled attempt, run under its order's lock: asked about, and a final
 * outcome handed to the merchant's handlers through the webhook dedupe, so a
 * handler runs once whether the webhook, this, or both bring the event. With
 * queued processing it is queued as a delivery would be, and stays pending
 * until a worker has handled it (the next run then settles it).
 */
export async function reconcileAttempt(deps: OrderGuardDeps, listed: OrderAttempt): Promise<ReconcileOutcome> {
  const current = await deps.store.get(listed.referenceOrderId);
  if (current?.transactionRequestId !== listed.transactionRequestId || !isUnsettled(current)) return undefined;
  const checked = await checkAttempt(deps, current);
  // Unknown to the service: asked again while its request may still arrive and charge; after that, nothing happened that a handler should hear of.
  if (checked.details === undefined) return checked.inFlight === true ? 'stillPending' : 'settled';
  if (!isFinalState(checked.attempt.state)) return 'stillPending';
  // The query's answer does not name a hosted attempt's session: the attempt does.
  const event = normalizeEvent(checked.details.raw.data, {
    deliveryId: `reconciliation:${current.transactionRequestId}`,
    timestamp: deps.clock.now(),
    ...(current.sessionId === undefined ? {} : { sessionId: current.sessionId }),
  });
  // Settled by a worker once handled; left pending meanwhile.
  if ((await handOnFoundEvent(deps.events, event)) === 'stillPending') return 'stillPending';
  await settleHandledEvent(deps, event);
  return 'settled';
}

/**
 * Hands an outcome found by asking the service to the handlers, through the
 * webhook route's dedupe: queued, with queued processing (`stillPending`
 * until a worker has run it: the next run finds it done), or run here.
 * Throws what a handler threw.
 */
export async function handOnFoundEvent(events: OrderGuardDeps['events'], event: PaymentEvent): Promise<'handled' | 'stillPending'> {
  const { processing } = events;
  if (processing) {
    return (await queueEvent(event, { store: events.store, processing, seal: events.seal })) === 'queued' ? 'stillPending' : 'handled';
  }
  const handling = await handleEventOnce(event, events, { context: undefined });
  if (handling.outcome === 'failed') throw handling.error;
  return handling.outcome === 'in-progress' ? 'stillPending' : 'handled';
}

const reconcileRefundsSchema = z.strictObject({
  transactionRequestIds: z.array(longTransactionRequestIdSchema).check(z.maxLength(10_000, 'must hold at most 10000 ids')),
});

/**
 * One refund, asked about by the transactionRequestId it was issued under, and
 * its final outcome handed to the handlers as its webhook would have been:
 * the same event, so the same dedupe key, and its handlers run once whichever
 * brings it.
 */
async function reconcileRefund(deps: OrderGuardDeps, transactionRequestId: string): Promise<'settled' | 'stillPending'> {
  const details = await deps.client.getTransaction({ transactionRequestId }).catch((error: unknown) => {
    if (!(error instanceof PaymentNotFoundError)) throw error;
    throw new Error(`the service knows no transaction ${transactionRequestId}: give the refund's own transactionRequestId, as client.refund() was called with`, { cause: error });
  });
  if (details.status === 'pending') return 'stillPending';
  const event = normalizeEvent(details.raw.data, { deliveryId: `reconciliation:${transactionRequestId}`, timestamp: deps.clock.now() });
  if (event.type !== 'refund.succeeded' && event.type !== 'refund.failed') {
    throw new Error(`transaction ${transactionRequestId} is a ${event.type} event, not a refund: payments are reconciled by reconcile()`);
  }
  return (await handOnFoundEvent(deps.events, event)) === 'stillPending' ? 'stillPending' : 'settled';
}

/**
 * The refunds named, each asked about and its final outcome handed to the
 * handlers through the webhook dedupe (queued, with queued processing). The
 * routes keep no record of refunds (the app issues them with
 * `client.refund()`), so the app names them: the recovery, with `reconcile()`
 * for payments, of refund events its queue or its handlers lost.
 */
export async function reconcileRefunds(deps: OrderGuardDeps, transactionRequestIds: readonly string[]): Promise<ReconcileSummary> {
  validate(reconcileRefundsSchema, { transactionRequestIds }, 'reconcileRefunds request');
  const summary: ReconcileSummary = { checked: 0, settled: 0, stillPending: 0, errors: 0 };
  for (const transactionRequestId of new Set(transactionRequestIds)) {
    summary.checked += 1;
    try {
      summary[await reconcileRefund(deps, transactionRequestId)] += 1;
    } catch (error) {
      summary.errors += 1;
      deps.logger.error({ transactionRequestId, err: error }, 'reconciliation could not hand on a refund’s outcome; the next run tries again');
    }
  }
  deps.logger.info(summary, 'refund reconciliation run');
  return summary;
}
