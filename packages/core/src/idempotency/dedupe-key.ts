import { base64UrlOf } from '../bytes';
import { platformCrypto } from '../platform/current-verifier';
import type { PaymentEvent } from '../webhooks/event';
import { normalizeCode } from '../webhooks/normalize-event';

/**
 * The one key an event is deduplicated under, taken from the signed body
 * alone: the delivery id and the timestamp are not signed, so anyone holding
 * a captured delivery can send it under any id. Keying by them let a replay
 * claim a fresh key each time (filling the store, evicting real keys) or
 * mark another event's delivery id as handled, so that event was lost.
 *
 * The identity is the transaction and its state: `transactionType`,
 * `transactionId`, `transactionRequestId` and `transactionStatus`.
 * - Both ids count: a refund has its own `transactionRequestId` (and its own
 *   `transactionId`), so a sale and its refunds, or two partial refunds, never
 *   share a key, even when the body omits `transactionType` or a service
 *   reports a refund under the original's `transactionId`.
 * - The status counts: `payment.failed` then `payment.succeeded` for the same
 *   transaction are two facts, each handled once, in arrival order.
 * - Type and status go through normalizeCode, as for the event's name, so
 *   `s` and `S` are one status everywhere; ids are compared exactly.
 * A body with neither id is identified by its whole content.
 *
 * Hashed, so a key has a fixed size whatever the body holds; the same key on
 * every platform, so stores shared between runtimes agree.
 */
export async function dedupeKeyOf(event: PaymentEvent): Promise<string> {
  const { transactionId, transactionRequestId, transactionType, transactionStatus } = event;
  const identity =
    transactionId === undefined && transactionRequestId === undefined
      ? ['body', event.payload]
      : [
          'transaction',
          transactionType === undefined ? null : normalizeCode(transactionType),
          transactionId ?? null,
          transactionRequestId ?? null,
          transactionStatus === undefined ? null : normalizeCode(transactionStatus),
        ];
  return `event:${base64UrlOf(await platformCrypto.sha256(JSON.stringify(identity)))}`;
}
