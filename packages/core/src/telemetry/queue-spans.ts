import type { Context, Link } from '@opentelemetry/api';
import type { EventProcessing, QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-processing';
import { ATTR } from './attributes';
import { secondsSince, type Telemetry } from './telemetry';
import { spanContextOf, traceparentOf } from './traceparent';

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
