import type { PaymentEvent, PaymentEventType } from '../webhooks/event';
import type { FinalOrderAttemptState } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';

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
