import type { PaymentClient, TransactionDetails } from '../client/types';
import { PaymentApiError, PaymentNotFoundError, PaymentRateLimitError } from '../errors';
import type { OrderAttempt, OrderAttemptState } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';
import { inFlightUntil } from './late-arrival';

/**
 * An attempt brought up to date with the service. `inFlight`: the service
 * knows no transaction by its id yet, but its request may still reach the
 * service, so the attempt is kept as it was.
 */
export interface CheckedAttempt {
  attempt: OrderAttempt;
  details?: TransactionDetails;
  inFlight?: boolean;
}

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
 * know is not proof that it never will: until the request can no longer reach
 * the service (`inFlightUntil`) the attempt stays as it is, and only after
 * that is it recorded closed, nothing charged and nothing for the handlers.
 */
export async function applyServiceView(
  deps: OrderGuardDeps,
  attempt: OrderAttempt,
  details: TransactionDetails | undefined,
): Promise<CheckedAttempt> {
  const { store, attemptTtlMs, clock } = deps;
  const now = clock.now();
  if (details === undefined) {
    if (now < inFlightUntil(deps, attempt)) return { attempt, inFlight: true };
    const neverReceived = { state: 'closed' as const, handled: true, updatedAt: now };
    await store.settle(attempt.referenceOrderId, attempt.transactionRequestId, neverReceived, attemptTtlMs);
    return { attempt: { ...attempt, state: 'closed', handledState: 'closed', updatedAt: now } };
  }
  const update = { state: stateFrom(details, attempt), transactionId: details.transactionId, updatedAt: now };
  await store.settle(attempt.referenceOrderId, attempt.transactionRequestId, update, attemptTtlMs);
  return { attempt: { ...attempt, ...update }, details };
}

/** Asks the service about an attempt and records the answer. */
export async function checkAttempt(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<CheckedAttempt> {
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
  deps: OrderGuardDeps,
  attempt: OrderAttempt,
  reason = 'the order is being paid another way',
): Promise<CheckedAttempt> {
  if (attempt.sessionId === undefined) return checkAttempt(deps, attempt);
  try {
    await deps.client.expireCheckoutSession({ sessionId: attempt.sessionId, reason });
  } catch (error) {
    if (!(error instanceof PaymentApiError) || error instanceof PaymentRateLimitError) throw error;
    deps.logger.info(
      { referenceOrderId: attempt.referenceOrderId, transactionRequestId: attempt.transactionRequestId, serviceCode: error.serviceCode },
      'the service refused to expire the order’s hosted session; asking it about the session instead',
    );
    return checkAttempt(deps, attempt);
  }
  const closed = { state: 'closed' as const, updatedAt: deps.clock.now() };
  await deps.store.settle(attempt.referenceOrderId, attempt.transactionRequestId, closed, deps.attemptTtlMs);
  return { attempt: { ...attempt, ...closed } };
}

/**
 * The session of a hosted attempt whose create-session answer was lost, and
 * that the service reports open: asked for again under the attempt's own id,
 * the service answers that same session (whatever the body says), so it can
 * be expired. Only from an attempt that recorded its amount, which the
 * request must carry; resolves undefined when the session cannot be named.
 */
export async function recoverLostSession(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<OrderAttempt | undefined> {
  if (attempt.amount === undefined || attempt.currency === undefined) return undefined;
  const session = await deps.client.createCheckoutSession({
    transactionRequestId: attempt.transactionRequestId,
    referenceOrderId: attempt.referenceOrderId,
    amount: { orderAmount: attempt.amount, priceCurrency: attempt.currency },
    description: 'A checkout whose answer was lost',
  });
  if (session.sessionId === undefined) return undefined;
  deps.logger.info(
    { referenceOrderId: attempt.referenceOrderId, transactionRequestId: attempt.transactionRequestId, sessionId: session.sessionId },
    'checkout session whose answer was lost named again under its transactionRequestId',
  );
  return { ...attempt, sessionId: session.sessionId, checkoutUrl: session.checkoutUrl, expiresAt: session.expiresAt.getTime() };
}

