// Options schemas: the blocks every one of paymount's is written with (the routes', the order guard's,
// the dedupe's, @paymount/bullmq's through @paymount/core/internal), the client's options, the logger
// and telemetry option rules.
import * as z from 'zod/mini';
import { baseUrlSchema, type Transport } from '../platform/contract';
import { platform } from '../platform/current';
import type { Dispatcher } from '../platform/node';
import type { Logger, LoggerOption } from '../shared/logger';
import type { PaymentTelemetryOptions } from '../shared/types';
import { MIN_SECRET_LENGTH } from '../shared/validation';
import type { Clock, Sleep } from './client-option-types';
import { appIdSchema, merchantIdSchema } from './fields';
import { isLoopbackHostname } from './urls';

/**
 * An option's rule and its default: left out (or undefined), the parsed options hold `value`. Its type
 * stays optional, as the merchant writes it; `Resolved` is what the parse gives.
 */
export const defaulted = <T extends z.core.SomeType>(rule: T, value: z.core.util.NoUndefined<z.core.output<T>>) =>
  z.optional(z._default(rule, value as never));

/** The options as a parse gives them: every `defaulted` option present. */
export type Resolved<T> = {
  [K in keyof T]-?: T[K] extends z.ZodMiniOptional<z.ZodMiniDefault<infer R>> ? z.output<R> : z.output<T[K]>;
};

/** The resolved form of an object schema's options. */
export type ResolvedOptions<S extends { shape: object }> = Resolved<S['shape']>;

/** A function option; `rule` names the broken rule for a caller that branches on it (default `custom`). */
export const fn = <T extends (...args: never[]) => unknown>(message: string, rule = 'custom') =>
  z.custom<T>((value) => typeof value === 'function', { message, params: { rule } });

export const objectWith = <T extends object>(methods: readonly string[], message: string) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    message,
  );

export const positiveInt = z.number().check(z.int('must be a whole number'), z.positive('must be greater than 0'));


const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The one check of "is this a logger" for every `logger` option: the four methods paymount calls. */
export function isLogger(value: unknown): value is Logger {
  return (
    typeof value === 'object' &&
    value !== null &&
    LOG_LEVELS.every((level) => typeof (value as Record<string, unknown>)[level] === 'function')
  );
}

/** A `logger` option: a pino-compatible logger, or `false` to log nothing. */
export const loggerOptionSchema = z.custom<LoggerOption>(
  (value) => value === false || isLogger(value),
  'must be a pino-compatible logger with debug, info, warn and error methods, or false to log nothing',
);

const providerWith = <T>(method: string) =>
  z.optional(
    z.custom<T>(
      (value) => typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function',
      `must be an OpenTelemetry provider with a ${method}() method`,
    ),
  );

export const telemetryOptionsSchema = z.optional(
  z.union(
    [
      z.literal(false),
      z.strictObject({
        api: z.optional(
          z.custom<NonNullable<PaymentTelemetryOptions['api']>>(
            (value) => {
              const api = value as { trace?: { getTracerProvider?: unknown }; metrics?: { getMeterProvider?: unknown }; context?: { with?: unknown } };
              return (
                typeof api === 'object' &&
                api !== null &&
                typeof api.trace?.getTracerProvider === 'function' &&
                typeof api.metrics?.getMeterProvider === 'function' &&
                typeof api.context?.with === 'function'
              );
            },
            "must be the @opentelemetry/api module: import * as api from '@opentelemetry/api'",
          ),
        ),
        tracerProvider: providerWith<NonNullable<PaymentTelemetryOptions['tracerProvider']>>('getTracer'),
        meterProvider: providerWith<NonNullable<PaymentTelemetryOptions['meterProvider']>>('getMeter'),
      }),
    ],
    'must be false or { api?, tracerProvider?, meterProvider? }',
  ),
);

const milliseconds = (fallback: number) =>
  z._default(z.number().check(z.int('must be a whole number of milliseconds'), z.positive('must be greater than 0')), fallback);

/** The whole-call deadline of a client call, retries included, unless `deadlineMs` says otherwise. */
export const DEFAULT_DEADLINE_MS = 90_000;

const wholeNumber = (...checks: z.core.$ZodCheck<number>[]) => z.number().check(z.int('must be a whole number'), ...checks);

export const retryOptionsSchema = z.strictObject({
  maxAttempts: z._default(wholeNumber(z.gte(1, 'must be at least 1'), z.lte(10, 'must be at most 10')), 3),
  baseDelayMs: z._default(wholeNumber(z.gte(0, 'must not be negative')), 250),
  maxDelayMs: z._default(wholeNumber(z.gte(0, 'must not be negative')), 8_000),
});

/** A PEM certificate as text or bytes (a Buffer from readFileSync). */
const pem = z.union([z.string(), z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be PEM text or its bytes')]);

/**
 * An option of the undici transport, which exists on Node's build only: the web
 * build (Bun, Deno, workerd, edge) sends through fetch and refuses it by name
 * rather than ignoring it.
 */
const nodeOnly = <O>(name: string, schema: z.ZodMiniType<O, O>): z.ZodMiniOptional<z.ZodMiniType<O, O>> =>
  z.optional(
    platform.name === 'node'
      ? schema
      : z.custom<O>(
          (value) => value === undefined,
          `configures undici, which paymount uses on Node only; this runtime sends through fetch, so remove \`${name}\` (or pass your own \`transport\`)`,
        ),
  );

export const paymentClientOptionsSchema = z
  .strictObject({
    apiKey: z.string('must be the API key string from the merchant portal').check(
      z.minLength(MIN_SECRET_LENGTH, `must be the whole key from the merchant portal, at least ${MIN_SECRET_LENGTH} characters`),
      // A key with whitespace would break the exact `Bearer <key>` header form.
      z.regex(/^\S+$/, 'must not contain whitespace'),
    ),
    baseUrl: baseUrlSchema,
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    timeoutMs: milliseconds(30_000),
    deadlineMs: milliseconds(DEFAULT_DEADLINE_MS),
    terminalTimeoutMs: milliseconds(120_000),
    retry: z.prefault(retryOptionsSchema, {}),
    dispatcher: nodeOnly(
      'dispatcher',
      z.custom<Dispatcher>(
        (value) => typeof value === 'object' && value !== null && typeof (value as Dispatcher).dispatch === 'function',
        'must be an undici Dispatcher (Agent, Pool, ProxyAgent…)',
      ),
    ),
    ca: nodeOnly('ca', z.union([pem, z.array(pem)])),
    transport: z.optional(
      z.custom<Transport>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as Transport).send === 'function' &&
          typeof (value as Transport).close === 'function',
        'must be a Transport: an object with send(method, path, headers, body, { timeoutMs, signal }) and close() methods',
      ),
    ),
    logger: z.optional(loggerOptionSchema),
    telemetry: telemetryOptionsSchema,
    clock: z.optional(
      z.custom<Clock>(
        (value) => typeof value === 'object' && value !== null && typeof (value as Clock).now === 'function',
        'must be an object with a now() method returning epoch milliseconds',
      ),
    ),
    generateId: z.optional(fn<() => string>('must be a function returning a transactionRequestId')),
    sleep: z.optional(fn<Sleep>('must be a function (ms, signal) => Promise<void>')),
    localDevelopment: z._default(z.boolean(), false),
  })
  .check(
    z.refine((options) => options.transport === undefined || (options.dispatcher === undefined && options.ca === undefined), {
      message: 'cannot be combined with `dispatcher` or `ca`, which configure the built-in transport: set them on your own transport instead',
      params: { rule: 'transport-alone' },
      path: ['transport'],
    }),
    z.refine(
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
    ),
  );
