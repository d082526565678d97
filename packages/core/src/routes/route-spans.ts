// Spans and metrics of the routes, deliveries, queues and reconciliation.
import type { Attributes, Context, Link, Span } from '@opentelemetry/api';
import { type NeutralRequest, type RouteAnswer, WEBHOOK_ROUTE } from '../http/neutral-http';
import type { Logger, Redactor } from '../shared/logger';
import type { PaymentTelemetry, ReconcileSummary } from '../shared/types';
import { ATTR, createTelemetry, deliveryIdAttribute, orderIdAttribute, secondsSince, spanContextOf, type Telemetry, traceparentOf } from '../telemetry/tracer';
import type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-handlers';
import type { ResolveOrder } from './types';
import type { WebhookDeps } from './webhook';

/**
 * The queue, traced: each enqueue is a PRODUCER span under the delivery's (or
 * reconciliation's) span, and the job carries that span's traceparent. When
 * the queue tells its depth, it is observed as a gauge.
 */
export function observeQueue({ api, tracer, meter }: Telemetry, processing: EventProcessing): EventProcessing {
  const { depth } = processing;
  if (depth) {
    meter
      .createObservableGauge('paymount.webhook.queue.depth', { description: 'Queued webhook events waiting, delayed or running' })
      .addCallback(async (result) => {
        // A queue that cannot be read right now skips one observation; its failure is the queue's to report.
        const count = await depth.call(processing).catch(() => undefined);
        if (count !== undefined) result.observe(count);
      });
  }
  const { retryCommand } = processing;
  return {
    ...(depth ? { depth: () => depth.call(processing) } : {}),
    ...(retryCommand ? { retryCommand: (queued: QueuedEvent) => retryCommand.call(processing, queued) } : {}),
    enqueue: (queued) =>
      tracer.startActiveSpan(
        'paymount webhook enqueue',
        { kind: api.SpanKind.PRODUCER, attributes: { [ATTR.eventType]: queued.event.type } },
        async (span) => {
          const context = span.spanContext();
          try {
            await processing.enqueue(api.trace.isSpanContextValid(context) ? { ...queued, traceparent: traceparentOf(context) } : queued);
          } catch (error) {
            span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'enqueue failed' });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
  };
}

/** A queued event failed for good: one more dead letter of its type. */
export function countDeadLetter({ instruments }: Telemetry, queued: QueuedEvent): void {
  instruments.deadLetters.add(1, { [ATTR.eventType]: queued.event.type });
}

/** What became of a run, as the job metrics and the span name it. */
function runResult(handling: QueuedEventHandling): string {
  return handling.outcome === 'in-progress' ? 'in_progress' : handling.outcome;
}

/**
 * One run of a queued event on a worker: a CONSUMER span that continues the
 * enqueue's trace (its child, and linked to it), the run's duration by
 * result, a retry for every run after the first, and a dead letter when the
 * last allowed run fails, or cannot run (the dedupe store unavailable).
 */
export async function traceQueuedRun(
  telemetry: Telemetry,
  queued: QueuedEvent,
  run: QueuedRun,
  process: () => Promise<QueuedEventHandling>,
): Promise<QueuedEventHandling> {
  const { api, tracer, instruments } = telemetry;
  const remote = queued.traceparent === undefined ? undefined : spanContextOf(queued.traceparent);
  const active = api.context.active();
  const parent: Context = remote ? api.trace.setSpanContext(active, remote) : active;
  const links: Link[] = remote ? [{ context: remote }] : [];
  const dimensions = { [ATTR.eventType]: queued.event.type };
  const span = tracer.startSpan(
    'paymount webhook process',
    { kind: api.SpanKind.CONSUMER, links, attributes: { ...dimensions, [ATTR.attempt]: run.attempt } },
    parent,
  );
  const started = performance.now();
  if (run.attempt > 1) instruments.jobRetries.add(1, dimensions);
  try {
    const handling = await api.context.with(api.trace.setSpan(parent, span), process);
    const result = runResult(handling);
    span.setAttribute(ATTR.jobResult, result);
    instruments.jobDuration.record(secondsSince(started), { ...dimensions, [ATTR.jobResult]: result });
    if (handling.outcome === 'failed') {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'handler failed' });
      if (run.lastAttempt) countDeadLetter(telemetry, queued);
    }
    return handling;
  } catch (error) {
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'event could not be processed' });
    if (run.lastAttempt) countDeadLetter(telemetry, queued);
    throw error;
  } finally {
    span.end();
  }
}

export interface RouteTelemetry {
  /** Runs one request of a mounted route inside its span; `answer` never throws (errors are already answers). */
  traceRoute(route: string, method: string, req: NeutralRequest, answer: () => Promise<RouteAnswer>): Promise<RouteAnswer>;
  /** The merchant's resolveOrder, noting the order of each request on its span. */
  observeOrderLookups(resolve: ResolveOrder): ResolveOrder;
  /** The webhook route's deps for one delivery, noting its event type and handler time on its span. */
  observeDelivery(deps: WebhookDeps, req: NeutralRequest): WebhookDeps;
  traceReconcile(run: () => Promise<ReconcileSummary>): Promise<ReconcileSummary>;
  /** Queued processing, each enqueue traced (see observeQueue). */
  observeQueue(processing: EventProcessing): EventProcessing;
  /** One run of a queued event on a worker (see traceQueuedRun). */
  traceQueuedRun(queued: QueuedEvent, run: QueuedRun, process: () => Promise<QueuedEventHandling>): Promise<QueuedEventHandling>;
  /** A queued event the queue failed without a failed run (see PaymentRoutes.reportDeadLetter). */
  countDeadLetter(queued: QueuedEvent): void;
}

/** What one request's span learns on the way. */
interface RequestRecord {
  span: Span;
  eventType?: string;
  handlerSeconds?: number;
}

/**
 * What became of a delivery, read from the answer the service gets: the
 * route's contract (200, 200 duplicate, 200 queued, 409 in progress, 500 handler failed,
 * 503 store unavailable, 4xx refused before any handler).
 */
function deliveryResult({ response, outcome }: RouteAnswer): string {
  switch (response.status) {
    case 200:
      return outcome.duplicate ? 'duplicate' : outcome.queued ? 'queued' : 'handled';
    case 409:
      return 'in_progress';
    case 500:
      return 'handler_failed';
    case 503:
      return 'store_unavailable';
    default:
      return 'rejected';
  }
}

/** Sets an attribute whose value may be missing, as the id rules of ./attributes leave it. */
function setIfKept(span: Span | undefined, name: string, value: string | undefined): void {
  if (value !== undefined) span?.setAttribute(name, value);
}

/** No telemetry: each part runs bare, and the routes need no branch for it (as the client's calls, telemetry/call-spans.ts). */
const NO_ROUTE_TELEMETRY: RouteTelemetry = {
  traceRoute: (_route, _method, _req, answer) => answer(),
  observeOrderLookups: (resolve) => resolve,
  observeDelivery: (deps) => deps,
  traceReconcile: (run) => run(),
  observeQueue: (processing) => processing,
  traceQueuedRun: (_queued, _run, process) => process(),
  countDeadLetter: () => {},
};

/**
 * Spans and metrics of the mounted routes: a SERVER span per request (an
 * INTERNAL one when the app's own HTTP instrumentation already made the
 * SERVER span), the webhook delivery's outcome on its span, order-guard
 * refusals, and reconciliation runs. Ids that come with a request pass
 * through `redactor` and are kept only if id-shaped.
 */
export function createRouteTelemetry(option: PaymentTelemetry | undefined, redactor: Redactor, logger: Logger): RouteTelemetry {
  const telemetry = createTelemetry(option, logger);
  if (telemetry === undefined) return NO_ROUTE_TELEMETRY;
  const { api, tracer, instruments, metered } = telemetry;
  const requests = new WeakMap<NeutralRequest, RequestRecord>();

  const recordDelivery = (record: RequestRecord, answer: RouteAnswer) => {
    const result = deliveryResult(answer);
    const dimensions: Attributes = {
      [ATTR.webhookResult]: result,
      ...(record.eventType === undefined ? {} : { [ATTR.eventType]: record.eventType }),
    };
    record.span.setAttributes({ ...dimensions, [ATTR.verification]: record.eventType === undefined ? 'failed' : 'verified' });
    instruments.deliveries.add(1, dimensions);
    if (result === 'duplicate' || result === 'in_progress') instruments.dedupeHits.add(1, dimensions);
    if (record.handlerSeconds !== undefined) {
      record.span.setAttribute(ATTR.handlerDuration, record.handlerSeconds);
      instruments.handlerDuration.record(record.handlerSeconds, dimensions);
    }
  };

  return {
    async traceRoute(route, method, req, answer) {
      const parent = api.context.active();
      const span = tracer.startSpan(`${method} ${route}`, {
        kind: api.trace.getSpan(parent) === undefined ? api.SpanKind.SERVER : api.SpanKind.INTERNAL,
        attributes: { [ATTR.method]: method, [ATTR.route]: route },
      }, parent);
      // As for the client's calls: nothing would be kept, so the request runs bare (asked per request,
      // so a tracer provider registered later applies).
      if (!metered && !span.isRecording()) return answer();
      const record: RequestRecord = { span };
      requests.set(req, record);
      try {
        const answered = await api.context.with(api.trace.setSpan(parent, span), answer);
        const { response } = answered;
        const code = answered.outcome.errorCode;
        span.setAttribute(ATTR.statusCode, response.status);
        if (code !== undefined) span.setAttribute(ATTR.errorType, code);
        // As the HTTP conventions say of a server span: only a 5xx is the server's error.
        if (response.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR, message: code ?? String(response.status) });
        if (route === WEBHOOK_ROUTE) recordDelivery(record, answered);
        // A payment route's 409 is always the one-order-one-charge guard: nothing was sent.
        else if (response.status === 409) instruments.guardRefusals.add(1, { [ATTR.route]: route, [ATTR.guardReason]: code ?? 'CONFLICT' });
        return answered;
      } finally {
        span.end();
        requests.delete(req);
      }
    },

    observeOrderLookups(resolve) {
      return async (orderId, ctx) => {
        const span = requests.get(ctx.request)?.span;
        setIfKept(span, ATTR.orderId, orderIdAttribute(orderId, redactor));
        const order = await resolve(orderId, ctx);
        if (order) setIfKept(span, ATTR.referenceOrderId, orderIdAttribute(order.referenceOrderId, redactor));
        return order;
      };
    },

    observeDelivery(deps, req) {
      const record = requests.get(req);
      if (record === undefined) return deps;
      return {
        ...deps,
        onVerified: (event) => {
          record.eventType = event.type;
          setIfKept(record.span, ATTR.deliveryId, deliveryIdAttribute(event.deliveryId, redactor));
        },
        handlers: {
          async dispatch(event, ctx) {
            const started = performance.now();
            try {
              return await deps.handlers.dispatch(event, ctx);
            } finally {
              record.handlerSeconds = secondsSince(started);
            }
          },
        },
      };
    },

    traceReconcile: (run) => traceReconcile(telemetry, run),
    observeQueue: (processing) => observeQueue(telemetry, processing),
    traceQueuedRun: (queued, run, process) => traceQueuedRun(telemetry, queued, run, process),
    countDeadLetter: (queued) => countDeadLetter(telemetry, queued),
  };
}

async function traceReconcile({ api, tracer, instruments }: Telemetry, run: () => Promise<ReconcileSummary>): Promise<ReconcileSummary> {
  return tracer.startActiveSpan('paymount reconcile', { kind: api.SpanKind.INTERNAL }, async (span) => {
    try {
      const summary = await run();
      span.setAttributes({
        'paymount.reconciliation.checked': summary.checked,
        'paymount.reconciliation.settled': summary.settled,
        'paymount.reconciliation.still_pending': summary.stillPending,
        'paymount.reconciliation.errors': summary.errors,
      });
      instruments.reconciliationsSettled.add(summary.settled);
      return summary;
    } catch (error) {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? 'Error' });
      throw error;
    } finally {
      span.end();
    }
  });
}
