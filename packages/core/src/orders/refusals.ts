import type { MerchantOrder } from '../merchant-order';
import type { OrderAttempt } from '../types/order-attempt';

/**
 * Why the guard sent nothing for an order. The routes choose the answer: an
 * `already-paid` wallet payment is a success to the browser, a checkout of a
 * paid order a conflict.
 */
export type OrderRefusal =
  /** The merchant says the order takes no payment. */
  | { refused: 'not-payable' }
  /** The order is paid; `attempt` is the payment. */
  | { refused: 'already-paid'; attempt: OrderAttempt }
  /** The outcome of the order's last attempt is not known yet. */
  | { refused: 'pending'; retryAfterSeconds: number }
  /** Another request holds the order's lock. */
  | { refused: 'in-progress'; retryAfterSeconds: number }
  /** The service would not expire a hosted session it still reports open. */
  | { refused: 'not-cancelled' };

/** Seconds after which a pending payment is worth asking about again. */
export const PAYMENT_PENDING_RETRY_AFTER_SECONDS = 5;

/** A payment request for an order rarely takes longer than this; the browser may try again after it. */
const PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

export const inProgress: OrderRefusal = { refused: 'in-progress', retryAfterSeconds: PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS };

export function isRefusal<T extends object>(answer: T | OrderRefusal): answer is OrderRefusal {
  return 'refused' in answer;
}

/** The merchant's word on the order comes first: one it says takes no payment is refused whatever its attempts. */
export function notPayable(order: Pick<MerchantOrder, 'payable'>): OrderRefusal | undefined {
  return order.payable === false ? { refused: 'not-payable' } : undefined;
}
