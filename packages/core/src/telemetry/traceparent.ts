import type { SpanContext } from '@opentelemetry/api';

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
