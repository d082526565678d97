import { payableTotal } from '../schemas/amount';
import type {
  PaymentClosedEvent,
  PaymentEvent,
  PaymentEventAmount,
  PaymentEventAttempt,
  PaymentFailedEvent,
  PaymentSucceededEvent,
} from '../webhooks/event';
import type { MerchantOrder } from '../merchant-order';
import type { OrderGuardDeps } from './guard-deps';

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
