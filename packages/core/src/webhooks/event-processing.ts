import type { PaymentEvent } from './event';

/** An event handed to queued processing, named by its dedupe key. */
export interface QueuedEvent {
  /** The event's dedupe key (`dedupeKeyOf`): a queue keeps at most one job per key. */
  key: string;
  event: PaymentEvent;
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
}
