import { PaymentErrorCode } from '../error-codes';
import { isRefusal, type OrderRefusal } from '../orders/refusals';
import { PaymentRouteError } from './route-error';

/** The answer to a request the order guard sent nothing for. */
export function refusalError(refusal: OrderRefusal): PaymentRouteError {
  switch (refusal.refused) {
    case 'not-payable':
      return new PaymentRouteError(409, PaymentErrorCode.ORDER_NOT_PAYABLE, 'This order cannot be paid now (already paid, cancelled or refunded).');
    case 'already-paid':
      return new PaymentRouteError(409, PaymentErrorCode.ORDER_ALREADY_PAID, 'This order is already paid.');
    case 'pending':
      return new PaymentRouteError(
        409,
        PaymentErrorCode.PAYMENT_PENDING,
        "The order's last payment is still being processed; nothing was sent. Its outcome is known shortly.",
        { retryAfterSeconds: refusal.retryAfterSeconds },
      );
    case 'in-progress':
      return new PaymentRouteError(409, PaymentErrorCode.PAYMENT_IN_PROGRESS, 'A payment of this order is being processed; nothing was sent. Retry shortly.', {
        retryAfterSeconds: refusal.retryAfterSeconds,
      });
    case 'not-cancelled':
      return new PaymentRouteError(502, PaymentErrorCode.CHECKOUT_NOT_CANCELLED, 'The service did not expire the checkout session; it stays open until it expires.');
  }
}

/** What the guard did, or its refusal thrown as the route's answer. */
export function unlessRefused<T extends object>(answer: T | OrderRefusal): T {
  if (isRefusal(answer)) throw refusalError(answer);
  return answer;
}
