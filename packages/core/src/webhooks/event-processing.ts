import type { EventHandling } from '../idempotency/handle-event-once';
import type { PaymentEvent } from './event';

/** An event handed to queued processing, named by its dedupe key. */
export interface QueuedEvent {
  /** The event's dedupe key (`dedupeKeyOf`): a queue keeps at most one job per key. */
  key: string;
  event: PaymentEvent;
  /**
   * The routes' seal of `key` and `event` (an HMAC under a key derived from the
   * webhook secret): a worker runs the handlers only for a job whose seal it
   * can check again, so a job written straight into the queue runs nothing.
   */
  mac: string;
  /** The W3C `traceparent` of the span that queued it, when traced: the run on a worker continues that trace. */
  traceparent?: string;
}

/** One run of a queued event on a worker, as the queue counts it. */
export interface QueuedRun {
  /**
   * 1 for the first run, 2 for the next, and so on: a retry after a failure,
   * or a run that takes the event over from a worker that died (a run after
   * the first is counted as a retry).
   */
  attempt: number;
  /** No retry follows a failure of this run: the event then goes to the queue's dead-letter state. */
  lastAttempt: boolean;
}

/**
 * What became of a queued event's run: as for a delivery (EventHandling), or
 * `refused`, a job whose seal does not verify (not queued by these routes, or
 * queued under other webhook secrets): nothing ran, nothing was read, and a
 * retry cannot change that.
 */
export type QueuedEventHandling = EventHandling | { outcome: 'refused' };

/**
 * Where the webhook route and reconciliation hand a verified event whose
 * handlers have not run to success, instead of running them inside the
 * request (inline, the default). The queue's workers run each event through
 * `paymentRoutes.processEvent`, with the same handlers, dedupe and order
 * settlement as inline processing. `@paymount/bullmq`'s `createWebhookQueue`
 * is one.
 */
export interface EventProcessing {
  /**
   * Takes the event durably, once per key: an event whose job is still kept
   * is not queued again. Resolves once it is accepted (the route then answers
   * 200); a rejection is answered 503, so the service retries.
   */
  enqueue(queued: QueuedEvent): Promise<void>;
  /** Events waiting, delayed or running: read for the queue-depth metric, when given. */
  depth?(): Promise<number>;
  /**
   * The command that sends a dead-lettered event back to the workers, as the
   * dead-letter log line prints it for the merchant to copy (the queue's
   * connection and name, never a password). Left out, the line says where to look.
   */
  retryCommand?(queued: QueuedEvent): string;
}
