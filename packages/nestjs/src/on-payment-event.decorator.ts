import { SetMetadata } from '@nestjs/common';
import type { PaymentEventContext, PaymentEventName, PaymentEventOf } from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';

export const PAYMENT_EVENT_METADATA = Symbol.for('paymount:on-payment-event');

/** A method `@OnPaymentEvent(...names)` accepts: it takes the event of those names (or a wider one). */
export type PaymentEventMethod<N extends PaymentEventName> = (
  event: PaymentEventOf<N>,
  ctx: PaymentEventContext<NestPlatformRequest>,
) => unknown;

/**
 * Marks a provider (or controller) method as a handler of verified webhook
 * events; '*' receives every event. The method is called with the event of
 * the names given and `{ context }` (the delivery's request); if it throws, the
 * delivery is answered 500 so the service retries it. A method whose first
 * parameter cannot take those events does not compile.
 *
 * @example
 * @OnPaymentEvent('payment.succeeded')
 * async markPaid(event: PaymentSucceededEvent) { ... }
 */
export function OnPaymentEvent<N extends PaymentEventName>(
  ...events: [N, ...N[]]
): <M extends PaymentEventMethod<N>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  const mark = SetMetadata(PAYMENT_EVENT_METADATA, events);
  return (target, key, descriptor) => void mark(target, key, descriptor);
}
