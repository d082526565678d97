import * as z from 'zod/mini';
import { handleEventOnce } from '../idempotency/handle-event-once';
import { queueEvent } from '../idempotency/queue-event';
import { validate } from '../validation';
import type { PaymentEvent } from '../webhooks/event';
import { normalizeEvent } from '../webhooks/normalize-event';
import { isFinalState, isUnsettled } from './attempt';
import type { OrderAttempt } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';
import type { ReconcileOptions } from '../types/reconcile';
import { settleHandledEvent } from './handled-events';
import { checkAttempt } from './service-check';

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
