import { consoleLogger, type EventProcessing, type Logger, type QueuedEvent } from '@paymount/core';
import { validate } from '@paymount/core/schemas';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { withinDeadline } from './deadline';
import { type ResolvedWebhookQueueOptions, webhookQueueOptionsSchema, type WebhookQueueOptions } from './options';
import { warnIfQueueCanLoseEvents } from './queue-durability';
import { PRODUCER_REDIS_OPTIONS, RedisConnections } from './redis-connections';
import { retryCommandOf } from './retry-command';
import { connectionErrorReporter, redisAddress, UNREACHABLE_REDIS_FIX } from './unreachable-redis';

/** The name of every job of the queue: one kind of job, a payment event. */
export const PAYMENT_EVENT_JOB = 'payment-event';

/** Completed jobs kept for a look at what ran: the dedupe store, not the job, is what stops a second run. */
const KEEP_COMPLETED = { age: 24 * 60 * 60, count: 10_000 };

/**
 * The job id of an event's dedupe key, so a second enqueue of the event is
 * a no-op while its job is kept. BullMQ refuses `:` in a custom id.
 */
export function jobIdOf(key: string): string {
  return key.replaceAll(':', '.');
}

/** A dead-lettered event, as `listFailed()` and `paymount-queue list-failed` show it. */
export interface FailedWebhookJob {
  /** The job id (the event's dedupe key, `.` for `:`): what `retry()` takes. */
  id: string;
  type: string;
  transactionId: string | undefined;
  referenceOrderId: string | undefined;
  deliveryId: string;
  /** Runs made, the last one failed. */
  attempts: number;
  /** The last failure's message. */
  failedReason: string;
  /** When it failed for the last time, epoch milliseconds. */
  failedAt: number | undefined;
}

function failedJob(job: Job<QueuedEvent>): FailedWebhookJob {
  const { event } = job.data;
  return {
    id: job.id ?? '',
    type: event.type,
    transactionId: event.transactionId,
    referenceOrderId: event.referenceOrderId,
    deliveryId: event.deliveryId,
    attempts: job.attemptsMade,
    failedReason: job.failedReason,
    failedAt: job.finishedOn,
  };
}

/**
 * Queued webhook processing on BullMQ: pass it as the routes'
 * `webhook.processing`, and run its workers (`startWebhookWorkers`) in the
 * app or in processes of their own. Each event is one job, its id the
 * event's dedupe key; a job is retried with exponential backoff up to
 * `attempts` runs, then kept in BullMQ's failed set, the dead-letter state,
 * until `retry()` (or `paymount-queue retry`) sends it back.
 */
export class WebhookQueue implements EventProcessing {
  readonly name: string;
  /** BullMQ's key prefix: every key of the queue starts with `<prefix>:<name>:`. */
  readonly prefix: string;
  readonly attempts: number;
  /** How long a call to Redis may wait before it fails (see WebhookQueueOptions.timeoutMs). */
  readonly timeoutMs: number;
  /** Told about connection errors, stalled jobs and dead letters. Default: the console (warnings and errors). */
  readonly logger: Logger;
  /** The BullMQ queue, for anything this class does not cover (bull-board, metrics, clean-up). */
  readonly bullQueue: Queue<QueuedEvent>;
  /** @internal Opens the workers' connections too. */
  readonly connections: RedisConnections;
  private readonly connection: Redis;

  constructor(options: WebhookQueueOptions) {
    // The schema's static type keeps defaulted options optional, as they are written; the check filled them in.
    const settings = validate(webhookQueueOptionsSchema, options, 'webhook queue options') as ResolvedWebhookQueueOptions;
    this.name = settings.name;
    this.prefix = settings.prefix;
    this.attempts = settings.attempts;
    this.timeoutMs = settings.timeoutMs;
    this.logger = options.logger ?? consoleLogger;
    this.connections = new RedisConnections(options.client ?? options.connection ?? {});
    const connection = this.connections.open(PRODUCER_REDIS_OPTIONS);
    this.connection = connection;
    // BullMQ's queue passes its connection's errors on too: one listener for both, so an outage is logged once.
    const onError = connectionErrorReporter(connection, this.logger, this.name);
    connection.on('error', onError);
    warnIfQueueCanLoseEvents(connection, this.logger, this.name);
    this.bullQueue = new Queue<QueuedEvent>(this.name, {
      connection,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: this.attempts,
        backoff: { type: 'exponential', delay: settings.backoffMs },
        removeOnComplete: KEEP_COMPLETED,
        // Failed jobs are the dead letters: kept until retried or removed on purpose.
        removeOnFail: false,
      },
    });
    this.bullQueue.on('error', onError);
  }

  /**
   * `work` on the queue's Redis, failing after `timeoutMs`: BullMQ waits
   * without end for a connection that was never ready (an enqueue would hold
   * the delivery until the service gives up, and paymount-queue would hang).
   */
  private withinTimeout<T>(work: Promise<T>): Promise<T> {
    return withinDeadline(
      work,
      this.timeoutMs,
      () => new Error(`Redis at ${redisAddress(this.connection)} did not answer within ${this.timeoutMs} ms (connection ${this.connection.status}). ${UNREACHABLE_REDIS_FIX}`),
    );
  }

  async enqueue(queued: QueuedEvent): Promise<void> {
    // An add that outlives its deadline may still land once Redis answers: one job per key, so the service's retry finds it queued.
    await this.withinTimeout(this.bullQueue.add(PAYMENT_EVENT_JOB, queued, { jobId: jobIdOf(queued.key) }));
  }

  /** How the routes' log lines say to send a job of this queue back (core names no queue: each gives its own words). */
  readonly retryHint = '`paymount-queue retry`';

  /** The `paymount-queue retry` command for a dead-lettered event, to copy from the log: this queue's Redis (without its password), name and prefix. */
  retryCommand(queued: QueuedEvent): string {
    return retryCommandOf(this, this.connection, jobIdOf(queued.key));
  }

  async depth(): Promise<number> {
    const counts = await this.withinTimeout(this.bullQueue.getJobCounts('waiting', 'delayed', 'active', 'prioritized'));
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  /** The dead-lettered events, most recent first. */
  async listFailed(): Promise<FailedWebhookJob[]> {
    const jobs = await this.withinTimeout(this.bullQueue.getFailed(0, -1));
    return jobs.map((job) => failedJob(job as Job<QueuedEvent>));
  }

  /**
   * Sends a dead-lettered event back to the workers with its attempts
   * counted anew. Takes the job id or the event's dedupe key (as logged);
   * false when no failed job has it.
   */
  async retry(idOrKey: string): Promise<boolean> {
    return this.withinTimeout(this.retryJob(jobIdOf(idOrKey)));
  }

  private async retryJob(id: string): Promise<boolean> {
    const job = await this.bullQueue.getJob(id);
    if (job === undefined || !(await job.isFailed())) return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  /** Sends every dead-lettered event back; resolves the number sent. */
  async retryAllFailed(): Promise<number> {
    let retried = 0;
    for (const { id } of await this.listFailed()) if (await this.retry(id)) retried += 1;
    return retried;
  }

  /** Closes the queue and every connection it (and its workers) opened; close the workers first. */
  async close(): Promise<void> {
    await this.bullQueue.close();
    await this.connections.closeAll();
  }
}

/** The queue the routes' `webhook.processing` option takes; see WebhookQueue. */
export function createWebhookQueue(options: WebhookQueueOptions): WebhookQueue {
  return new WebhookQueue(options);
}
