import { SetMetadata } from '@nestjs/common';
import type { PaymentEventName } from '@paymount/core';

export const PAYMENT_EVENT_METADATA = Symbol.for('paymount:on-payment-event');

/**
 * Marks a provider (or controller) method as a handler of verified webhook
 * events; '*' receives every event. The method is called with the
 * `PaymentEvent` and `{ context }` (the delivery's request); if it throws, the
 * delivery is answered 500 so the service retries it.
 *
 * @example
 * @OnPaymentEvent('payment.succeeded')
 * async markPaid(event: PaymentEvent) { ... }
 */
export function OnPaymentEvent(...events: [PaymentEventName, ...PaymentEventName[]]): MethodDecorator {
  return SetMetadata(PAYMENT_EVENT_METADATA, events);
}
