import { handleEventOnce } from '../idempotency/handle-event-once';
import type { Redactor } from '../logger';
import type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-processing';
import type { WebhookDeps } from './webhook';

/** How the merchant sends a dead-lettered event back: the queue's own command when it can print one. */
function retryFix(queued: QueuedEvent, processing: EventProcessing | undefined): string {
  if (processing?.retryCommand) return `then send it back to the workers: ${processing.retryCommand(queued)}`;
  return 'then retry it from the queue (@paymount/bullmq: `npx paymount-queue list-failed`, then `npx paymount-queue retry <key>`).';
}

function summaryOf({ key, event }: QueuedEvent): Record<string, unknown> {
  return { key, type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };
}

const REFUSED_JOB =
  'queued webhook job refused: its seal matches none of the webhook secrets of these routes, so no handler ran and nothing was read, and it is failed without retry. ' +
  'Either it was not queued by paymount\'s routes (something wrote to the queue\'s Redis: keep that Redis private, behind a password or ACL user only the app holds) ' +
  'or the process that queued it has other webhook secrets than this worker (give both the same webhook.secret, or during a rotation the same webhook.secrets, ' +
  'then `paymount-queue retry` it). A job with no seal (`mac`) at all may also come from a paymount version before jobs were sealed: recover its event with reconcile() or reconcileRefunds().';

/**
 * One run of a queued event on a worker: the job's seal checked before
 * anything else (claim, store read, handler), then the inline path's handling
 * (claim, handlers, completion, the order's attempt settled), told in the log.
 * A failure of the last allowed run is an error naming the event and its
 * cause, so a dead-lettered event is seen without any configuration. A failed
 * handler's error is handed back with the secrets cut out of it: the queue
 * keeps it (its failed reason and stack) where no redacting logger reads.
 */
export async function processQueuedEvent(queued: QueuedEvent, run: QueuedRun, deps: WebhookDeps, redactor: Redactor): Promise<QueuedEventHandling> {
  const { event } = queued;
  const summary = { ...summaryOf(queued), attempt: run.attempt };
  if (!(await deps.seal.verify(queued))) {
    deps.logger.error(summary, REFUSED_JOB);
    return { outcome: 'refused' };
  }
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
          `queued webhook event dead-lettered: its handler failed on the last allowed attempt. Fix the cause (err), ${retryFix(queued, deps.processing)}`,
        );
      } else {
        deps.logger.warn({ ...summary, err: handling.error }, 'queued webhook handler failed; the queue retries it with backoff');
      }
      return { outcome: 'failed', error: redactor.redactError(handling.error) };
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
export function logLostEvent(queued: QueuedEvent, cause: unknown, deps: Pick<WebhookDeps, 'logger' | 'processing'>): void {
  deps.logger.error(
    { ...summaryOf(queued), err: cause },
    'queued webhook event dead-lettered by the queue (err): its runs kept losing their worker (a process killed or crashing, ' +
      `or a handler blocking the event loop past the job's lock; on BullMQ, more often than maxStalledCount allows). Find why, ${retryFix(queued, deps.processing)}`,
  );
}
