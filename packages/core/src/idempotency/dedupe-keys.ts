import type { PaymentEvent } from '../webhooks/event';

/**
 * The keys one delivery is deduplicated under. Two, because the service can
 * repeat either way: a retry repeats the delivery id, while a re-signed
 * redelivery of the same event may come with a new delivery id but the same
 * transaction and status. A delivery is a duplicate when either key is taken.
 *
 * The event identity includes the status on purpose: `payment.failed` then
 * `payment.succeeded` for the same transaction are two facts, each handled once,
 * in arrival order.
 */
export function dedupeKeysOf(event: PaymentEvent): string[] {
  const keys = [`delivery:${event.deliveryId}`];
  const transaction =
    event.transactionId !== undefined
      ? `id=${event.transactionId}`
      : event.transactionRequestId !== undefined
        ? `request=${event.transactionRequestId}`
        : undefined;
  if (transaction !== undefined) {
    keys.push(`event:${event.transactionType ?? '-'}:${transaction}:${event.transactionStatus ?? '-'}`);
  }
  return keys;
}
