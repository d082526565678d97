import type { PaymentClient } from '../client/types';
import type { EventDedupeDeps } from '../idempotency/handle-event-once';
import type { Logger } from '../logger';
import type { EventProcessing } from '../webhooks/event-processing';
import type { QueuedEventSeal } from '../webhooks/queued-event-seal';
import type { RequestIdSource } from './request-ids';
import type { OrderAttemptStore } from './store';

/** What the order guard works with, resolved once from the handler options. */
export interface OrderGuardDeps {
  client: PaymentClient;
  /** Already wrapped by checkedOrderStore. */
  store: OrderAttemptStore;
  lockTtlMs: number;
  attemptTtlMs: number;
  clock: { now(): number };
  logger: Logger;
  /** Each order's transactionRequestIds. */
  requestIds: RequestIdSource;
  /** How long after a payment call starts the service may still receive it (see lateArrivalMs). */
  lateArrivalMs: number;
  /** Reconciliation hands final outcomes to the merchant's handlers (or queues them) through the same dedupe as the webhook route. */
  events: EventDedupeDeps & { processing: EventProcessing | undefined; seal: QueuedEventSeal };
}
