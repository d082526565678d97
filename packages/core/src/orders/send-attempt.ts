import { PaymentValidationError } from '../errors';
import type { OrderAttempt, OrderAttemptKind, OrderAttemptState } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';
import type { OrderCharge, SendDecision } from './next-attempt';

/** The fields a call's result sets on its attempt. */
export type AttemptOutcome = { state: OrderAttemptState } & Partial<Pick<OrderAttempt, 'sessionId' | 'checkoutUrl' | 'expiresAt' | 'transactionId'>>;

/** Builds the service request of a payment for the transactionRequestId the guard chose. */
export type RequestFor<Input> = (transactionRequestId: string) => Input;

/** How an attempt goes out: its request, the call that sends it, and what the call's result sets on the attempt. */
export interface AttemptCall<Input, Result> {
  request: RequestFor<Input>;
  send: (input: Input) => Promise<Result>;
  outcomeOf: (result: Result) => AttemptOutcome;
}

/**
 * Sends a new attempt: recorded `pending` under its transactionRequestId
 * before the call goes out (a store failure here is a 503 and nothing is
 * sent), then updated with the call's outcome. A call that throws leaves the
 * attempt pending, since the service may have received it; only a request
 * refused before sending (PaymentValidationError) gives the order back its
 * previous attempt. Recording the outcome is best effort: an attempt left
 * pending is asked about by the next request, never paid twice.
 */
export async function sendAttempt<Input, Result>(
  deps: OrderGuardDeps,
  decision: SendDecision,
  attempt: { charge: OrderCharge; kind: OrderAttemptKind },
  call: AttemptCall<Input, Result>,
): Promise<Result> {
  const { charge, kind } = attempt;
  // Built before the attempt is recorded: a merchant's URL function that throws leaves the order as it was.
  const input = call.request(decision.transactionRequestId);
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
  let result: Result;
  try {
    result = await call.send(input);
  } catch (error) {
    if (error instanceof PaymentValidationError) await restore(deps, decision.previous, charge.referenceOrderId);
    throw error;
  }
  try {
    await deps.store.put({ ...sent, ...call.outcomeOf(result), updatedAt: deps.clock.now() }, deps.attemptTtlMs);
  } catch (error) {
    deps.logger.warn(
      { referenceOrderId: charge.referenceOrderId, transactionRequestId: sent.transactionRequestId, err: error },
      'order attempt store: the outcome of a payment call could not be recorded; the attempt stays pending and the next request asks the service',
    );
  }
  return result;
}

async function restore(deps: OrderGuardDeps, previous: OrderAttempt | undefined, referenceOrderId: string): Promise<void> {
  try {
    if (previous) await deps.store.put(previous, deps.attemptTtlMs);
    else await deps.store.delete(referenceOrderId);
  } catch (error) {
    // Left pending: the next request asks the service, finds nothing, and goes on.
    deps.logger.warn({ referenceOrderId, err: error }, 'order attempt store: an attempt refused before sending could not be undone');
  }
}
