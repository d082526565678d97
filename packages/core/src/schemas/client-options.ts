import { z } from 'zod';
import { platform } from '../platform/current';
import type { Dispatcher } from '../platform/node/transport';
import type { Transport } from '../platform/types';
import { telemetryOptionsSchema } from '../telemetry/options';
import { appIdSchema, merchantIdSchema } from './fields';
import { loggerOptionSchema } from './logger-option';
import { isLoopbackHostname } from './public-host';
import { MIN_SECRET_LENGTH } from './secret-length';
import type { Clock, Sleep } from '../types/client-options';

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

/** A PEM certificate as text or bytes (a Buffer from readFileSync). */
const pem = z.union([z.string(), z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be PEM text or its bytes')]);

/**
 * An option of the undici transport, which exists on Node's build only: the web
 * build (Bun, Deno, workerd, edge) sends through fetch and refuses it by name
 * rather than ignoring it.
 */
const nodeOnly = <O>(name: string, schema: z.ZodType<O, O>): z.ZodOptional<z.ZodType<O, O>> =>
  platform.name === 'node'
    ? schema.optional()
    : z
        .custom<O>(
          (value) => value === undefined,
          `configures undici, which paymount uses on Node only; this runtime sends through fetch, so remove \`${name}\` (or pass your own \`transport\`)`,
        )
        .optional();

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
    dispatcher: nodeOnly(
      'dispatcher',
      z.custom<Dispatcher>(
        (value) => typeof value === 'object' && value !== null && typeof (value as Dispatcher).dispatch === 'function',
        'must be an undici Dispatcher (Agent, Pool, ProxyAgent…)',
      ),
    ),
    ca: nodeOnly('ca', z.union([pem, z.array(pem)])),
    transport: z
      .custom<Transport>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as Transport).send === 'function' &&
          typeof (value as Transport).close === 'function',
        'must be a Transport: an object with send(method, path, headers, body, { timeoutMs, signal }) and close() methods',
      )
      .optional(),
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
  .refine((options) => options.transport === undefined || (options.dispatcher === undefined && options.ca === undefined), {
    message: 'cannot be combined with `dispatcher` or `ca`, which configure the built-in transport: set them on your own transport instead',
    params: { rule: 'transport-alone' },
    path: ['transport'],
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

export type { PaymentClientOptions, ResolvedPaymentClientOptions } from '../types/client-options';
