// The webhook route, inline or queued, and running a queued event.
import { errorAnswer, jsonResponse } from '../http/error-answers';
import { answered, type NeutralRequest, type RouteAnswer } from '../http/neutral-http';
import { PaymentErrorCode } from '../shared/errors';
import type { Logger, Redactor } from '../shared/logger';
import { type EventDedupeDeps, handleEventOnce, type QueuedEventSeal, queueEvent } from '../webhook-dedupe/handle-event-once';
import type { PaymentEvent } from '../webhooks/event';
import type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-handlers';
import { verifyDelivery } from '../webhooks/verify-webhook';
import type { PaymentRoutesConfig } from './config';

/**
 * Starts a timer that warns, once, when inline handlers are still running
 * after `budgetMs`: the service stops waiting for the answer after about
 * 10 s and delivers again, so long work belongs on queued processing. The
 * returned stop() clears it.
 */
export function warnWhenSlow(logger: Logger, budgetMs: number, fields: Record<string, unknown>): () => void {
  const timer = setTimeout(() => {
    logger.warn(
      { ...fields, budgetMs },
      `webhook handlers are still running after ${budgetMs} ms, inside the delivery: the service waits about 10 s for the answer, then delivers again. ` +
        'Move long work to queued processing (webhook.processing: createWebhookQueue() from @paymount/bullmq: the route answers at once and workers run the handlers), ' +
        'or raise webhook.slowHandlerWarningMs if this is expected.',
    );
  }, budgetMs);
  // A warning alone must not keep the process alive.
  timer.unref?.();
  return () => clearTimeout(timer);
}

/** The webhook route's resolved options, with what the composition root adds to them. */
export type WebhookDeps = EventDedupeDeps &
  PaymentRoutesConfig['webhook'] & {
    /** Told about each accepted delivery whose body carries no signed time (see unsignedTimeWarning). */
    onUnsignedTime: () => void;
    /** Told about each event whose handlers just ran, to settle the order's attempt. Never throws. */
    afterHandled: (event: PaymentEvent) => Promise<void>;
    clock: { now(): number };
    /** Told about each delivery that passed verification (telemetry notes its event type). */
    onVerified?: (event: PaymentEvent) => void;
    /** Seals the events handed to `processing`, and checks a job's seal before a worker runs it. */
    seal: QueuedEventSeal;
    /** How the log says to send a job of the queue back (retryHintOf). */
    retryHint: string;
  };

async function rawBodyOf(req: NeutralRequest): Promise<unknown> {
  // A parsed object is handed on as is: verifyWebhook refuses it with the mounting-order message.
  if (req.parsedBody !== undefined) return req.parsedBody;
  return req.readBody ? req.readBody() : undefined;
}

/** Seconds a delivery refused as in progress is asked to wait: handlers should finish well within the service's 10 s. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

/**
 * Warns once per handlers instance that deliveries come without the signed
 * time: replay protection then rests on the dedupe store alone, which
 * forgets an event after `dedupeTtlMs`.
 */
export function unsignedTimeWarning(logger: Logger, field: string): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    logger.warn(
      { field },
      `webhook deliveries carry no signed ${field}: a captured delivery replayed after webhook.dedupeTtlMs would run its handlers again. ` +
        'Set webhook.signedTimeField to the body field the service signs its time in, and webhook.requireSignedTime: true to refuse bodies without it.',
    );
  };
}

function duplicateAnswer(logger: Logger, summary: Record<string, unknown>): RouteAnswer {
  logger.info(summary, 'duplicate webhook delivery ignored');
  return { response: jsonResponse(200, { received: true, duplicate: true }), outcome: { duplicate: true } };
}

/**
 * POST /webhook. Verify (signature, then the time signed into the body), then
 * claim the event's one dedupe key, derived from the signed body alone. If it
 * is held by a handled event, this delivery is a duplicate (200, no handler
 * runs) and nothing is written: replays, under whatever delivery id, leave
 * the store as it was. If it is held by a delivery still being handled, this
 * one is refused with 409: should that handler fail, the event must still
 * arrive, and the service's retry of this delivery brings it. On a handler
 * failure the claim is released and 500 makes the service retry; when the
 * store cannot be reached, 503 does. With queued processing the event is
 * queued instead (see queueEvent) and answered 200 whatever its handlers do.
 */
export async function webhookRoute(req: NeutralRequest, deps: WebhookDeps): Promise<RouteAnswer> {
  const { event, signedTime } = await verifyDelivery({
    rawBody: await rawBodyOf(req),
    headers: req.headers,
    secrets: deps.secrets,
    toleranceMs: deps.toleranceMs,
    maxBodyBytes: deps.maxBodyBytes,
    signedTimeField: deps.signedTimeField,
    requireSignedTime: deps.requireSignedTime,
    now: deps.clock.now(),
  });
  if (signedTime === undefined) deps.onUnsignedTime();
  deps.onVerified?.(event);
  const summary = { type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };
  if (deps.processing) {
    // A store or queue failure throws PaymentStoreUnavailableError: 503, and the service retries.
    if ((await queueEvent(event, { store: deps.store, processing: deps.processing, seal: deps.seal })) === 'duplicate') return duplicateAnswer(deps.logger, summary);
    deps.logger.info(summary, 'webhook delivery queued');
    return { response: jsonResponse(200, { received: true, queued: true }), outcome: { queued: true } };
  }
  const stopWatching = warnWhenSlow(deps.logger, deps.slowHandlerWarningMs, summary);
  // A store failure while claiming throws PaymentStoreUnavailableError: 503, and the service retries.
  const handling = await handleEventOnce(event, deps, { context: req.context }).finally(stopWatching);
  switch (handling.outcome) {
    case 'duplicate':
      return duplicateAnswer(deps.logger, summary);
    case 'in-progress':
      deps.logger.warn(summary, 'webhook delivery refused while the same event is being handled; the service will retry');
      return errorAnswer(
        409,
        { code: PaymentErrorCode.WEBHOOK_IN_PROGRESS, message: 'The same event is being handled by another delivery; retry later.' },
        { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
      );
    case 'failed':
      deps.logger.error({ ...summary, err: handling.error }, 'webhook handler failed; the delivery will be retried');
      return errorAnswer(500, {
        code: PaymentErrorCode.WEBHOOK_HANDLER_FAILED,
        message: 'A webhook handler failed; the delivery will be retried.',
      });
    case 'handled':
      await deps.afterHandled(event);
      deps.logger.info({ ...summary, handlers: handling.handlers }, 'webhook delivery handled');
      return answered(jsonResponse(200, { received: true }));
  }
}

/**
 * How a queue's log lines say to send one of its jobs back, in a few words: a queue may give its own
 * (`retryHint`, beside EventProcessing: @paymount/bullmq's is its command), since core names no queue.
 */
export function retryHintOf(processing: EventProcessing | undefined): string {
  return processing !== undefined && 'retryHint' in processing && typeof processing.retryHint === 'string' ? processing.retryHint : 'retry';
}

/** How the merchant sends a dead-lettered event back: the queue's own command when it can print one. */
function retryFix(queued: QueuedEvent, deps: Pick<WebhookDeps, 'processing' | 'retryHint'>): string {
  if (deps.processing?.retryCommand) return `then send it back to the workers: ${deps.processing.retryCommand(queued)}`;
  return `then ${deps.retryHint} it from the queue.`;
}

function summaryOf({ key, event }: QueuedEvent): Record<string, unknown> {
  return { key, type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };
}

const refusedJob = (retryHint: string) =>
  'queued webhook job refused: its seal matches none of the webhook secrets of these routes, so no handler ran and nothing was read, and it is failed without retry. ' +
  'Either it was not queued by paymount\'s routes (something wrote to the queue\'s Redis: keep that Redis private, behind a password or ACL user only the app holds) ' +
  'or the process that queued it has other webhook secrets than this worker (give both the same webhook.secret, or during a rotation the same webhook.secrets, ' +
  `then ${retryHint} it). A job with no seal (\`mac\`) at all may also come from a paymount version before jobs were sealed: recover its event with reconcile() or reconcileRefunds().`;

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
    deps.logger.error(summary, refusedJob(deps.retryHint));
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
          `queued webhook event dead-lettered: its handler failed on the last allowed attempt. Fix the cause (err), ${retryFix(queued, deps)}`,
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
export function logLostEvent(queued: QueuedEvent, cause: unknown, deps: Pick<WebhookDeps, 'logger' | 'processing' | 'retryHint'>): void {
  deps.logger.error(
    { ...summaryOf(queued), err: cause },
    'queued webhook event dead-lettered by the queue (err): its runs kept losing their worker (a process killed or crashing, ' +
      `or a handler blocking the event loop past the job's lock; on BullMQ, more often than maxStalledCount allows). Find why, ${retryFix(queued, deps)}`,
  );
}
