import { Agent as HttpAgent } from 'node:http';
import { createPaymentClient, type CallOptions, type PaymentTelemetry } from '@paymount/core';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { context, SpanKind, trace } from '@opentelemetry/api';
import axios from 'axios';
import { Pool } from 'undici';
import { CREATE_SESSION_PATH, CREDENTIALS, ORDERS, REFUND_AMOUNT, SETTLED_PAYMENT_ID, sessionFieldsOf } from '../fixtures/shop';
import { createSessionOnUndici, handWrittenCall, sessionOf } from './handwritten/create-session';
import { queryOnUndici, refundOnUndici } from './handwritten/lifecycle';

export type ClientSide =
  | 'paymount'
  | 'undici'
  | 'axios'
  | 'paymount-telemetry'
  | 'paymount-no-telemetry'
  | 'paymount-sdk-work'
  | 'paymount-telemetry-sampled'
  | 'paymount-refund'
  | 'undici-refund'
  | 'paymount-query'
  | 'undici-query';

/** The client's time limits, when a side's calls need longer ones than its defaults (under valgrind: subjects/call-loop.ts). */
export type CallLimits = Required<Pick<CallOptions, 'timeoutMs' | 'deadlineMs'>>;

/** Exporters that drop what they get: the SDK still builds, batches and aggregates every span and metric point. */
const discard = { export: (_items: unknown, done: (result: { code: 0 }) => void) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };

/**
 * The OpenTelemetry SDK as a merchant's app wires it (batched spans, metrics
 * read every 10 s), exporting nowhere; every call traced unless a sampler says.
 */
function sdkTelemetry(sampler?: Sampler) {
  return {
    tracerProvider: new BasicTracerProvider({ sampler, spanProcessors: [new BatchSpanProcessor(discard as SpanExporter)] }),
    meterProvider: new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: discard as unknown as PushMetricExporter, exportIntervalMillis: 10_000 })],
    }),
  } satisfies PaymentTelemetry;
}

/**
 * A call with telemetry off, wrapped by hand in what paymount's telemetry
 * asks of the SDK per call (core's telemetry README table): the INTERNAL
 * span, its CLIENT child made current for the request, their attributes,
 * and one duration histogram point. What is left to paymount's own code is
 * the difference between this side and paymount-telemetry.
 */
function sdkWorkCaller(upstream: string, limits?: CallLimits): () => Promise<boolean> {
  const client = paymountClient(upstream, false, limits);
  const input = sessionFieldsOf(order);
  const { tracerProvider, meterProvider } = sdkTelemetry();
  const tracer = tracerProvider.getTracer('bench');
  const duration = meterProvider.getMeter('bench').createHistogram('bench.call.duration', { unit: 's' });
  const dimensions = { 'http.request.method': 'POST', 'url.path': CREATE_SESSION_PATH };
  const { hostname, port } = new URL(upstream);
  const attemptAttributes = { ...dimensions, 'server.address': hostname, 'server.port': Number(port) };
  const measured = { ...dimensions, 'paymount.outcome': 'success' };
  return async () => {
    const started = performance.now();
    const parent = context.active();
    const span = tracer.startSpan(`paymount POST ${CREATE_SESSION_PATH}`, { kind: SpanKind.INTERNAL, attributes: dimensions }, parent);
    span.setAttribute('paymount.transaction_request_id', input.referenceOrderId);
    const callContext = trace.setSpan(parent, span);
    const attempt = tracer.startSpan(`POST ${CREATE_SESSION_PATH}`, { kind: SpanKind.CLIENT, attributes: attemptAttributes }, callContext);
    attempt.setAttribute('paymount.attempt', 1);
    const session = await context.with(trace.setSpan(callContext, attempt), () => client.createCheckoutSession(input));
    for (const target of [attempt, span]) {
      target.setAttribute('paymount.service.code', '0');
      target.setAttribute('paymount.service.trace_id', session.transactionRequestId);
    }
    attempt.setAttribute('http.response.status_code', 200);
    attempt.end();
    span.setAttribute('paymount.outcome', 'success');
    span.setAttribute('paymount.attempts', 1);
    span.end();
    duration.record((performance.now() - started) / 1000, measured);
    return session.checkoutUrl.length > 0;
  };
}

function paymountClient(upstream: string, telemetry?: PaymentTelemetry, limits?: CallLimits) {
  return createPaymentClient({ ...CREDENTIALS, baseUrl: upstream, localDevelopment: true, telemetry, ...limits });
}

function paymountCaller(upstream: string, telemetry?: PaymentTelemetry, limits?: CallLimits): () => Promise<boolean> {
  const client = paymountClient(upstream, telemetry, limits);
  const input = sessionFieldsOf(order);
  return async () => (await client.createCheckoutSession(input)).checkoutUrl.length > 0;
}

const order = ORDERS.get('order-0001')!;

/** One create-session call per side, each the way its author would write it. */
export const callers: Record<ClientSide, (upstream: string, connections: number, limits?: CallLimits) => () => Promise<boolean>> = {
  paymount: (upstream, _connections, limits) => paymountCaller(upstream, undefined, limits),
  'paymount-telemetry': (upstream, _connections, limits) => paymountCaller(upstream, sdkTelemetry(), limits),
  'paymount-no-telemetry': (upstream, _connections, limits) => paymountCaller(upstream, false, limits),
  'paymount-sdk-work': (upstream, _connections, limits) => sdkWorkCaller(upstream, limits),
  // One call in ten traced, as a busy production app samples; the histogram still sees every call.
  'paymount-telemetry-sampled': (upstream) =>
    paymountCaller(upstream, sdkTelemetry(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }))),
  undici(upstream, connections) {
    const pool = new Pool(upstream, { connections });
    return async () => (await createSessionOnUndici(pool, upstream, order)).checkoutUrl.length > 0;
  },
  'paymount-refund'(upstream) {
    const client = paymountClient(upstream);
    const input = { originalTransactionId: SETTLED_PAYMENT_ID, amount: REFUND_AMOUNT };
    return async () => (await client.refund(input)).status === 'succeeded';
  },
  'undici-refund'(upstream, connections) {
    const pool = new Pool(upstream, { connections });
    return async () => (await refundOnUndici(pool, upstream)) === 'S';
  },
  'paymount-query'(upstream) {
    const client = paymountClient(upstream);
    const lookup = { transactionId: SETTLED_PAYMENT_ID };
    return async () => (await client.getTransaction(lookup)).status === 'succeeded';
  },
  'undici-query'(upstream, connections) {
    const pool = new Pool(upstream, { connections });
    return async () => (await queryOnUndici(pool, upstream)) === 'S';
  },
  axios(upstream, connections) {
    const http = axios.create({ baseURL: upstream, httpAgent: new HttpAgent({ keepAlive: true, maxSockets: connections }) });
    return async () => {
      const { headers, body } = handWrittenCall(order);
      const response = await http.post(CREATE_SESSION_PATH, body, { headers });
      return sessionOf(response.data as Parameters<typeof sessionOf>[0]).checkoutUrl.length > 0;
    };
  },
};
