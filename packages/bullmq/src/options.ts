import { defaulted, type Resolved } from '@paymount/core/internal';
import { isLogger } from '@paymount/core/schemas';
import type { Logger } from '@paymount/core';
import type { Redis, RedisOptions } from 'ioredis';
import { z } from 'zod';

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const positiveInt = z.number('must be a number').int('must be a whole number').positive('must be greater than 0');

export const DEFAULT_QUEUE_NAME = 'paymount-webhooks';
export const DEFAULT_QUEUE_PREFIX = 'paymount';
export const DEFAULT_ATTEMPTS = 10;
export const DEFAULT_BACKOFF_MS = 1_000;
/** Half the service's 10 s wait for a webhook answer: a delivery the queue cannot take is answered 503 while the service still listens. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The options of `createWebhookQueue`. Written out rather than inferred so that the published
 * declarations import no zod (a CommonJS app without esModuleInterop cannot compile zod's typings);
 * the schema below is annotated with it, so the two cannot drift.
 */
export interface WebhookQueueOptions {
  /** A redis:// URL or ioredis options; exactly one of `connection` and `client`. */
  connection?: string | RedisOptions | undefined;
  /** An ioredis client (for example the one @nestjs/bullmq uses); exactly one of `connection` and `client`. */
  client?: Redis | undefined;
  /** The queue's name (BullMQ refuses `:`). */
  name?: string | undefined;
  /** The Redis key prefix. */
  prefix?: string | undefined;
  /** Delivery attempts per event. */
  attempts?: number | undefined;
  /** The first retry's delay, in milliseconds. */
  backoffMs?: number | undefined;
  /**
   * How long a call to the queue's Redis (an enqueue, `listFailed()`, `retry()`) may wait before it
   * fails, a Redis never reached included: the delivery is then answered 503 and the service retries it.
   */
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

const webhookQueueOptionsShape = {
    connection: z
      .union([z.string().min(1, 'must not be empty'), z.custom<RedisOptions>(isObject)], 'must be a redis:// URL or ioredis options')
      .optional(),
    client: z
      .custom<Redis>((value) => isObject(value) && ['duplicate', 'on'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function'), 'must be an ioredis client')
      .optional(),
    name: defaulted(
      z.string('must be a string').regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits, `_`, `.` or `-` (BullMQ refuses `:`)'),
      DEFAULT_QUEUE_NAME,
    ),
    prefix: defaulted(z.string('must be a string').regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits, `_`, `.` or `-`'), DEFAULT_QUEUE_PREFIX),
    attempts: defaulted(positiveInt.max(100, 'must be at most 100'), DEFAULT_ATTEMPTS),
    backoffMs: defaulted(positiveInt, DEFAULT_BACKOFF_MS),
    timeoutMs: defaulted(positiveInt, DEFAULT_TIMEOUT_MS),
    logger: z.custom<Logger>(isLogger, 'must be a pino-compatible logger with debug, info, warn and error methods').optional(),
};

/** The queue's options once checked: each rule and default is written once, in the shape above (core's `defaulted`). */
export type ResolvedWebhookQueueOptions = Resolved<typeof webhookQueueOptionsShape>;

export const webhookQueueOptionsSchema: z.ZodType<WebhookQueueOptions, WebhookQueueOptions> = z
  .strictObject(webhookQueueOptionsShape)
  .refine((options) => (options.client === undefined) !== (options.connection === undefined), {
    message: 'set exactly one of `connection` (a redis:// URL or ioredis options) or `client` (an ioredis client, e.g. the one @nestjs/bullmq uses)',
    params: { rule: 'one_connection_option' },
  });

const webhookWorkersOptionsShape = {
  routes: z.custom<object>(
    (value) => isObject(value) && typeof (value as Record<string, unknown>)['processEvent'] === 'function',
    'must be the payment routes (createPaymentRoutes(), or an adapter\'s `paymentRoutes`) created with webhook.processing set to this queue',
  ),
  concurrency: defaulted(positiveInt.max(1_000, 'must be at most 1000'), 1),
  lockDurationMs: defaulted(positiveInt, 30_000),
  stalledIntervalMs: defaulted(positiveInt, 30_000),
  maxStalledCount: defaulted(z.number().int('must be a whole number').nonnegative('must not be negative'), 2),
  heldRetryDelayMs: defaulted(positiveInt, 5_000),
};

/** The workers' options once checked, every default applied. */
export type ResolvedWebhookWorkersOptions = Resolved<typeof webhookWorkersOptionsShape>;

export const webhookWorkersOptionsSchema = z.strictObject(webhookWorkersOptionsShape);
