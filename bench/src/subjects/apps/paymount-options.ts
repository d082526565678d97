import type { PaymentRoutesOptions } from '@paymount/core';
import { CREDENTIALS, NOTIFY_URL, resolveOrder, WEBHOOK_SECRET } from '../../fixtures/shop';

/** The same payment setup for every framework: the merchant's orders, the stub as the service. */
export function paymountOptions(upstream: string, onSucceeded: () => void): PaymentRoutesOptions {
  return {
    client: { ...CREDENTIALS, baseUrl: upstream, localDevelopment: true },
    resolveOrder,
    notifyUrl: NOTIFY_URL,
    webhook: { secret: WEBHOOK_SECRET },
    on: { 'payment.succeeded': onSucceeded },
    // As silent as the hand-written routes it is measured against.
    logger: false,
  };
}

/** What both sides' webhook handlers do: count, so the work cannot be optimised away. */
export const handled = { events: 0 };
export const countEvent = (): void => {
  handled.events++;
};
