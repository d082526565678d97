// The tracer and meter set-up, attributes, traceparent.
import type { Counter, Histogram, Meter, MeterProvider, SpanContext, Tracer, TracerProvider } from '@opentelemetry/api';
import type * as z from 'zod/mini';
import { version } from '../../package.json';
import type { OtelApi } from '../platform/contract/platform';
import { platform } from '../platform/current';
import { longTransactionRequestIdSchema, referenceOrderIdSchema } from '../schemas/fields';
import { type Logger, type Redactor, silentLogger } from '../shared/logger';
import type { PaymentTelemetry, PaymentTelemetryOptions } from '../shared/types';

// W3C Trace Context, version 00: https://www.w3.org/TR/trace-context/#traceparent-header
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * A span's context as a `traceparent` string: written by hand rather than by
 * the global propagator, so a queued job carries its trace whether or not
 * the app registered one.
 */
export function traceparentOf(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
}

/** The remote span context a `traceparent` names, or undefined when it is not one. */
export function spanContextOf(traceparent: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
}

/**
 * Attribute names: the OpenTelemetry HTTP semantic conventions where one
 * fits, `paymount.*` for the rest. Values are ids, codes, counts and
 * statuses only: never a request body, a header, an error message or a URL
 * query, so no API key, wallet token, webhook secret or signature can reach
 * an exporter.
 */
export const ATTR = {
  method: 'http.request.method',
  path: 'url.path',
  route: 'http.route',
  statusCode: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  outcome: 'paymount.outcome',
  attempt: 'paymount.attempt',
  attempts: 'paymount.attempts',
  retryReason: 'paymount.retry.reason',
  serviceCode: 'paymount.service.code',
  serviceTraceId: 'paymount.service.trace_id',
  transactionRequestId: 'paymount.transaction_request_id',
  orderId: 'paymount.order.id',
  referenceOrderId: 'paymount.order.reference_id',
  guardReason: 'paymount.order_guard.reason',
  verification: 'paymount.webhook.verification',
  webhookResult: 'paymount.webhook.result',
  eventType: 'paymount.event.type',
  deliveryId: 'paymount.webhook.delivery_id',
  handlerDuration: 'paymount.webhook.handler.duration',
  jobResult: 'paymount.webhook.job.result',
} as const;

/**
 * A value someone outside chose (the browser's order id, a delivery's unsigned
 * id header), as a span may keep it: cut of every registered secret, then
 * dropped unless it still has the shape of an id, so a token or a secret
 * pasted into the field is never exported.
 */
function idShaped(value: string, rule: z.ZodMiniType<string>, redactor: Redactor): string | undefined {
  const cut = redactor.redactString(value);
  return rule.safeParse(cut).success ? cut : undefined;
}

/** An order id as a span may keep it (the referenceOrderId rule), or undefined. */
export function orderIdAttribute(value: string, redactor: Redactor): string | undefined {
  return idShaped(value, referenceOrderIdSchema, redactor);
}

/** A webhook delivery id as a span may keep it (the service's request-id rule, up to 64 characters), or undefined. */
export function deliveryIdAttribute(value: string, redactor: Redactor): string | undefined {
  return idShaped(value, longTransactionRequestIdSchema, redactor);
}

/** The path without its query: a transaction query carries its ids there, and a metric dimension must stay low-cardinality. */
export function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** Where the service is, as the semantic conventions want it on a client span. */
export function serverAttributes(baseUrl: string): Record<string, string | number> {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { [ATTR.serverAddress]: url.hostname, [ATTR.serverPort]: port };
}

/** The instrumentation scope of every span and metric. */
export const INSTRUMENTATION_NAME = '@paymount/core';

export interface Instruments {
  callDuration: Histogram;
  retries: Counter;
  deliveries: Counter;
  dedupeHits: Counter;
  handlerDuration: Histogram;
  guardRefusals: Counter;
  reconciliationsSettled: Counter;
  jobDuration: Histogram;
  jobRetries: Counter;
  deadLetters: Counter;
}

/** A client's or the routes' telemetry, resolved once from its `telemetry` option. */
export interface Telemetry {
  api: OtelApi;
  tracer: Tracer;
  instruments: Instruments;
  /** For instruments made on demand (the queue-depth gauge, only when a queue is given). */
  meter: Meter;
  /** False when the meter is the API's no-op one (no meter provider given or registered): recording a metric does nothing. */
  metered: boolean;
}

function createInstruments(meter: Meter): Instruments {
  return {
    // Its count is the number of calls: a counter beside it would cost every call a second attribute hash in the SDK.
    callDuration: meter.createHistogram('paymount.client.call.duration', {
      description: 'Logical payment service calls and their duration, all attempts and waits included, by path and outcome',
      unit: 's',
    }),
    retries: meter.createCounter('paymount.client.retries', { description: 'Attempts resent to the payment service, by reason' }),
    deliveries: meter.createCounter('paymount.webhook.deliveries', { description: 'Webhook deliveries received, by result' }),
    dedupeHits: meter.createCounter('paymount.webhook.dedupe_hits', {
      description: 'Webhook deliveries whose event was already handled or being handled: no handler ran',
    }),
    handlerDuration: meter.createHistogram('paymount.webhook.handler.duration', {
      description: "Time the merchant's webhook handlers took for one delivery",
      unit: 's',
    }),
    guardRefusals: meter.createCounter('paymount.orders.guard_refusals', {
      description: 'Payment requests refused by the one-order-one-charge guard (409): nothing was sent',
    }),
    reconciliationsSettled: meter.createCounter('paymount.reconciliation.settled', {
      description: 'Unsettled payment attempts that reconciliation settled',
    }),
    jobDuration: meter.createHistogram('paymount.webhook.job.duration', {
      description: "Runs of queued webhook events on a worker and their duration, the merchant's handlers included, by result",
      unit: 's',
    }),
    jobRetries: meter.createCounter('paymount.webhook.job.retries', { description: 'Runs of queued webhook events after their first' }),
    deadLetters: meter.createCounter('paymount.webhook.dead_letters', {
      description: 'Queued webhook events whose last allowed run failed: kept in the dead-letter state until retried',
    }),
  };
}

/**
 * Undefined when telemetry is off (`false`) or `@opentelemetry/api` is neither
 * given (`api`) nor loadable by the platform (Node, when it is installed): the
 * callers then skip every span and metric, and `logger` is told if providers
 * were given. Without providers the global ones are used, as OpenTelemetry
 * libraries do; the global tracer provider is a proxy, so one registered later
 * still applies.
 */
export function createTelemetry(option: PaymentTelemetry | undefined, logger: Logger): Telemetry | undefined {
  if (option === false) return undefined;
  const api = (option?.api as OtelApi | undefined) ?? platform.loadOtelApi();
  if (api === undefined) {
    if (option !== undefined) warnProvidersUnused(option, logger);
    return undefined;
  }
  const tracerProvider = (option?.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
  const meterProvider = (option?.meterProvider as MeterProvider | undefined) ?? api.metrics.getMeterProvider();
  const meter = meterProvider.getMeter(INSTRUMENTATION_NAME, version);
  return {
    api,
    tracer: tracerProvider.getTracer(INSTRUMENTATION_NAME, version),
    instruments: createInstruments(meter),
    meter,
    metered: meter !== api.createNoopMeter(),
  };
}

/**
 * Providers already warned about: the routes hand their option to their own
 * client as well (validated into a copy, the providers the same), and one line says it.
 */
const warnedProviders = new WeakSet<object>();

/**
 * Providers given without an API to drive them (the web build never loads
 * `@opentelemetry/api` by name; Node could not find it): without this line the
 * merchant's dashboards would stay empty without a word.
 */
function warnProvidersUnused(option: PaymentTelemetryOptions, logger: Logger): void {
  const given = (['tracerProvider', 'meterProvider'] as const).filter((name) => option[name] !== undefined);
  const provider = option.tracerProvider ?? option.meterProvider;
  // A silent logger (the routes' own client) must not use up the one warning the routes' logger will show.
  if (provider === undefined || logger.warn === silentLogger.warn || warnedProviders.has(provider)) return;
  warnedProviders.add(provider);
  logger.warn(
    { given },
    `${given.map((name) => `\`telemetry.${name}\``).join(' and ')} ${given.length === 1 ? 'was' : 'were'} given without \`telemetry.api\`, and @opentelemetry/api could not be loaded here ` +
      "(paymount loads it by name on Node only), so paymount records no span and no metric: pass the API as `telemetry: { api, ... }`, " +
      "with import * as api from '@opentelemetry/api'.",
  );
}

/** Seconds since `startedMs` (performance.now()), the unit the semantic conventions use for durations. */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
