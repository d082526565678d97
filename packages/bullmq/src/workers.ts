import type { PaymentRoutes, QueuedEvent } from '@paymount/core';
import { validate } from '@paymount/core/schemas';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { type ResolvedWebhookWorkersOptions, webhookWorkersOptionsSchema } from './options';
import { WORKER_REDIS_OPTIONS } from './redis-connections';
import type { WebhookQueue } from './webhook-queue';

export interface WebhookWorkersOptions {
  /**
   * The payment routes whose handlers run the events: the app's own (an
   * adapter's `paymentRoutes`), or, in a worker process, ones created with
   * the same options. Their `webhook.processing` is this queue.
   */
  routes: Pick<PaymentRoutes, 'processEvent' | 'reportDeadLetter'>;
  /** Jobs run at once by this process. Default 1. */
  concurrency?: number;
  /**
   * How long a job stays locked to its worker without renewal (renewed every
   * half of it while the handlers run). A worker that dies (SIGKILL, OOM, a
   * lost host) leaves its job to another once this has passed. Default 30 s;
   * keep it at least the routes' `webhook.processingTtlMs` (25 s by default),
   * so the dead worker's claim of the event has lapsed when the job moves.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose lock lapsed. Default 30 s. */
  stalledIntervalMs?: number;
  /**
   * Times a job may lose its worker before it is failed for good (dead-lettered without running again,
   * logged as an error, retried with paymount-queue). Default 2.
   */
  maxStalledCount?: number;
  /** How long a job waits when its event is held by another run (a worker that died, its claim not lapsed yet). Default 5 s. */
  heldRetryDelayMs?: number;
}

export interface WebhookWorkers {
  /** The BullMQ worker: for its events, pause() and resume(). */
  readonly worker: Worker<QueuedEvent>;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

/**
 * Runs the queue's jobs through the routes' handlers (`processEvent`): a job
 * completes when the event was handled (or found already handled), is
 * retried with backoff when a handler failed, waits when another run
 * holds the event, and is failed for good, without a retry, when its seal
 * does not verify (a job the routes did not queue). Several processes may run workers of one queue: each job
 * runs on one of them at a time.
 */
export function startWebhookWorkers(queue: WebhookQueue, options: WebhookWorkersOptions): WebhookWorkers {
  // The schema's static type keeps defaulted options optional, as they are written; the check filled them in.
  const settings = validate(webhookWorkersOptionsSchema, options, 'webhook workers options') as ResolvedWebhookWorkersOptions;
  const { heldRetryDelayMs } = settings;
  const { routes } = options;
  const { logger } = queue;

  /** Jobs this worker ran the processor for; a failure of any other is BullMQ's own (the stall limit). */
  const ran = new WeakSet<Job<QueuedEvent>>();

  const processor = async (job: Job<QueuedEvent>, token?: string) => {
    ran.add(job);
    // A run whose worker died used no attempt, but this run after it is a retry all the same.
    const attempt = job.attemptsMade + job.stalledCounter + 1;
    const run = { attempt, lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) };
    const handling = await routes.processEvent(job.data, run).catch((error: unknown) => {
      // The routes log their handlers' failures; this is one before any handler ran (the dedupe store could not be used).
      const fields = { jobId: job.id, type: job.data.event.type, transactionId: job.data.event.transactionId, attempt, err: error };
      if (run.lastAttempt) logger.error(fields, `webhook job dead-lettered: the dedupe store could not be used on its last attempt. Once it is back, retry it: ${queue.retryCommand(job.data)}`);
      else logger.warn(fields, 'webhook job could not run (the dedupe store could not be used); retried with backoff');
      throw error;
    });
    switch (handling.outcome) {
      case 'handled':
      case 'duplicate':
        return handling.outcome;
      case 'in-progress':
        // Not a failure: the attempt is not counted, and the job comes back once the holder's claim can have lapsed.
        await job.moveToDelayed(Date.now() + heldRetryDelayMs, token);
        throw new DelayedError();
      case 'failed':
        // Already cut of secrets by the routes: BullMQ keeps it as the job's failed reason and stack trace.
        throw handling.error instanceof Error ? handling.error : new Error(String(handling.error));
      case 'refused':
        // A job whose seal does not verify never will: failed for good, no retry (the routes logged why).
        throw new UnrecoverableError('refused: the job\'s seal matches none of the webhook secrets (see the log)');
    }
  };

  const connection = queue.connections.open(WORKER_REDIS_OPTIONS);
  const worker = new Worker<QueuedEvent>(queue.name, processor, {
    connection,
    prefix: queue.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.stalledIntervalMs,
    maxStalledCount: settings.maxStalledCount,
  });
  worker.on('error', (error) => logger.error({ err: error, queue: queue.name }, 'webhook worker: Redis error; it keeps reconnecting'));
  worker.on('stalled', (jobId) =>
    logger.warn({ jobId, queue: queue.name }, 'webhook job stalled: its worker stopped renewing the lock (it died or blocked); another worker runs it'),
  );
  // Failed runs reported themselves; a job failed before running (its stall limit reached) is reported here, or nowhere.
  worker.on('failed', (job, error) => {
    if (job !== undefined && !ran.has(job)) routes.reportDeadLetter(job.data, error);
  });
  return {
    worker,
    close: () => worker.close(),
  };
}
