import { handleEventOnce, type EventHandling } from '../idempotency/handle-event-once';
import type { Logger } from '../logger';
import type { QueuedEvent, QueuedRun } from '../webhooks/event-processing';
import type { WebhookDeps } from './webhook';

const RETRY_FROM_QUEUE = 'then retry it from the queue (@paymount/bullmq: `npx paymount-queue list-failed`, then `npx paymount-queue retry <key>`).';

function summaryOf({ key, event }: QueuedEvent): Record<string, unknown> {
  return { key, type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };
}

/**
 * One run of a queued event on a worker: the inline path's handling (claim,
 * handlers, completion, the order's attempt settled), told in the log. A
 * failure of the last allowed run is an error naming the event and its
 * cause, so a dead-lettered event is seen without any configuration.
 */
export async function processQueuedEvent(queued: QueuedEvent, run: QueuedRun, deps: WebhookDeps): Promise<EventHandling> {
  const { event } = queued;
  const summary = { ...summaryOf(queued), attempt: run.attempt };
  const handling = await handleEventOnce(event, deps, { context: undefined });
  switch (handling.outcome) {
    case 'handled':
      await deps.afterHandled(event);
      deps.logger.info({ ...summary, handlers: handling.handlers }, 'queued webhook event handled');
      break;
    case 'failed':
      if (run.lastAttempt) {
        deps.logger.error(
          { ...summary, err: handling.error },
          `queued webhook event dead-lettered: its handler failed on the last allowed attempt. Fix the cause (err), ${RETRY_FROM_QUEUE}`,
        );
      } else {
        deps.logger.warn({ ...summary, err: handling.error }, 'queued webhook handler failed; the queue retries it with backoff');
      }
      break;
    default:
      deps.logger.info(summary, handling.outcome === 'duplicate' ? 'queued webhook event already handled' : 'queued webhook event held by another run; retried later');
  }
  return handling;
}

/**
 * A queued event the queue failed without a run failing (see
 * PaymentRoutes.reportDeadLetter), told as an error: no handler error names
 * it, so the log is the only place it shows.
 */
export function logLostEvent(queued: QueuedEvent, cause: unknown, logger: Logger): void {
  logger.error(
    { ...summaryOf(queued), err: cause },
    'queued webhook event dead-lettered by the queue (err): its runs kept losing their worker (a process killed or crashing, ' +
      `or a handler blocking the event loop past the job's lock; on BullMQ, more often than maxStalledCount allows). Find why, ${RETRY_FROM_QUEUE}`,
  );
}
