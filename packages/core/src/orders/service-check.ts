import type { PaymentClient, TransactionDetails } from '../client/types';
import { PaymentApiError, PaymentNotFoundError, PaymentRateLimitError } from '../errors';
import type { OrderAttempt, OrderAttemptState } from './attempt';
import type { OrderDeps } from './order-lock';

/** What the checks need: the client, and the order deps to record what they learn. */
export interface ServiceCheckDeps {
  client: PaymentClient;
  orders: OrderDeps;
}

/** An attempt brought up to date with the service: `voided` when the service never received it. */
export type CheckedAttempt =
  | { attempt: OrderAttempt; details?: TransactionDetails }
  | { attempt: undefined; voided: OrderAttempt | undefined };

/** The service's view of the attempt's transaction, or undefined when it knows none by that transactionRequestId. */
export async function queryAttempt(client: PaymentClient, attempt: OrderAttempt): Promise<TransactionDetails | undefined> {
  try {
    return await client.getTransaction({ transactionRequestId: attempt.transactionRequestId });
  } catch (error) {
    if (error instanceof PaymentNotFoundError) return undefined;
    throw error;
  }
}

/** The attempt state a transaction's status gives: a final one, or the attempt's own while the service has not finished. */
function stateFrom(details: TransactionDetails, attempt: OrderAttempt): OrderAttemptState {
  return details.status === 'pending' ? attempt.state : details.status;
}

/**
 * Records what the service said of the attempt (under the order's lock), and
 * answers the attempt as it now stands. A transaction the service does not
 * know was never received: the attempt is forgotten (`voided`), and the order
 * is as if it had not been made.
 */
export async function applyServiceView(
  deps: ServiceCheckDeps,
  attempt: OrderAttempt,
  details: TransactionDetails | undefined,
): Promise<CheckedAttempt> {
  const { store, attemptTtlMs, clock } = deps.orders;
  if (details === undefined) {
    await store.delete(attempt.referenceOrderId);
    return { attempt: undefined, voided: attempt };
  }
  const update = { state: stateFrom(details, attempt), transactionId: details.transactionId, updatedAt: clock.now() };
  await store.settle(attempt.referenceOrderId, attempt.transactionRequestId, update, attemptTtlMs);
  return { attempt: { ...attempt, ...update }, details };
}

/** Asks the service about an attempt and records the answer. */
export async function checkAttempt(deps: ServiceCheckDeps, attempt: OrderAttempt): Promise<CheckedAttempt> {
  return applyServiceView(deps, attempt, await queryAttempt(deps.client, attempt));
}

/**
 * Ends the attempt's hosted session with the service before the order is
 * paid another way, so its page cannot charge the order too. A session the
 * service refuses to expire (it was paid meanwhile, or is unknown) is asked
 * about instead, and whatever it says is recorded: paid answers the order as
 * paid. `reason` goes to the service with the expiry. Rate limits and network failures propagate: nothing else is sent.
 */
export async function closeHostedAttempt(
  deps: ServiceCheckDeps,
  attempt: OrderAttempt,
  reason = 'the order is being paid another way',
): Promise<CheckedAttempt> {
  if (attempt.sessionId === undefined) return checkAttempt(deps, attempt);
  try {
    await deps.client.expireCheckoutSession({ sessionId: attempt.sessionId, reason });
  } catch (error) {
    if (!(error instanceof PaymentApiError) || error instanceof PaymentRateLimitError) throw error;
    deps.orders.logger.info(
      { referenceOrderId: attempt.referenceOrderId, transactionRequestId: attempt.transactionRequestId, serviceCode: error.serviceCode },
      'the service refused to expire the order’s hosted session; asking it about the session instead',
    );
    return checkAttempt(deps, attempt);
  }
  const closed = { state: 'closed' as const, updatedAt: deps.orders.clock.now() };
  await deps.orders.store.settle(attempt.referenceOrderId, attempt.transactionRequestId, closed, deps.orders.attemptTtlMs);
  return { attempt: { ...attempt, ...closed } };
}
