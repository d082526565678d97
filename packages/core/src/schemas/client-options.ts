import { z } from 'zod';
import type { Dispatcher } from 'undici';
import { telemetryOptionsSchema } from '../telemetry/options';
import { appIdSchema, merchantIdSchema } from './fields';
import { loggerOptionSchema } from './logger-option';
import { isLoopbackHostname } from './public-host';
import { MIN_SECRET_LENGTH } from './secret-length';

export interface Clock {
  now(): number;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. Injectable so tests need not sleep. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const fn = <T>(message: string) => z.custom<T>((value) => typeof value === 'function', message);

const positiveInt = (fallback: number) =>
  z.number().int('must be a whole number of milliseconds').positive('must be greater than 0').default(fallback);

/** The whole-call deadline of a client call, retries included, unless `deadlineMs` says otherwise. */
export const DEFAULT_DEADLINE_MS = 90_000;

export const retryOptionsSchema = z.strictObject({
  maxAttempts: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10, 'must be at most 10').default(3),
  baseDelayMs: z.number().int('must be a whole number').min(0, 'must not be negative').default(250),
  maxDelayMs: z.number().int('must be a whole number').min(0, 'must not be negative').default(8_000),
});

export const paymentClientOptionsSchema = z
  .strictObject({
    apiKey: z
      .string('must be the API key string from the merchant portal')
      .min(MIN_SECRET_LENGTH, `must be the whole key from the merchant portal, at least ${MIN_SECRET_LENGTH} characters`)
      // A key with whitespace would break the exact `Bearer <key>` header form.
      .regex(/^\S+$/, 'must not contain whitespace'),
    // Aborts, so the https rule below only ever reads a URL that parses.
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL', abort: true }),
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    timeoutMs: positiveInt(30_000),
    deadlineMs: positiveInt(DEFAULT_DEADLINE_MS),
    terminalTimeoutMs: positiveInt(120_000),
    retry: retryOptionsSchema.default({ maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 8_000 }),
    dispatcher: z
      .custom<Dispatcher>(
        (value) => typeof value === 'object' && value !== null && typeof (value as Dispatcher).dispatch === 'function',
        'must be an undici Dispatcher (Agent, Pool, ProxyAgent…)',
      )
      .optional(),
    ca: z.union([z.string(), z.instanceof(Buffer), z.array(z.union([z.string(), z.instanceof(Buffer)]))]).optional(),
    logger: loggerOptionSchema.optional(),
    telemetry: telemetryOptionsSchema,
    clock: z
      .custom<Clock>(
        (value) => typeof value === 'object' && value !== null && typeof (value as Clock).now === 'function',
        'must be an object with a now() method returning epoch milliseconds',
      )
      .optional(),
    generateId: fn<() => string>('must be a function returning a transactionRequestId').optional(),
    sleep: fn<Sleep>('must be a function (ms, signal) => Promise<void>').optional(),
    localDevelopment: z.boolean().default(false),
  })
  .refine(
    (options) => {
      const url = new URL(options.baseUrl);
      return url.protocol === 'https:' || (options.localDevelopment && isLoopbackHostname(url.hostname));
    },
    {
      message:
        'must use https:// (TLS 1.2+); plain http:// is allowed only for a loopback sandbox with localDevelopment: true',
      params: { rule: 'https' },
      path: ['baseUrl'],
    },
  );

export type PaymentClientOptions = z.input<typeof paymentClientOptionsSchema>;
export type ResolvedPaymentClientOptions = z.output<typeof paymentClientOptionsSchema>;
