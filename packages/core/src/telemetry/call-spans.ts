import type { Attributes, Context, Span } from '@opentelemetry/api';
import { PaymentApiError, PaymentError, PaymentTimeoutError } from '../errors';
import { ATTR, pathOnly, serverAttributes } from './attributes';
import { createTelemetry, secondsSince, type Telemetry } from './telemetry';
import type { PaymentTelemetry } from './options';

/** What the call loop hands over of one attempt's result. */
export type ObservedAttempt =
  | { ok: true; envelope: { code: string; traceId?: string | undefined }; status?: number | undefined }
  | { ok: false; error: PaymentError; status?: number | undefined };

/** How a logical call ended, as performCall returns it. */
export type ObservedOutcome = { kind: 'answered'; envelope: { code: string; traceId?: string | undefined } } | { kind: 'unknown'; error: PaymentError };

/** Hooks of the call loop: each attempt runs through `attempt`, each resend is announced by `retry`. */
export interface CallObserver {
  attempt<R extends ObservedAttempt>(attempt: number, send: () => Promise<R>): Promise<R>;
  retry(reason: string): void;
}

/** The observer of a client without telemetry: adds nothing but a function call. */
export const UNOBSERVED: CallObserver = {
  attempt: (_attempt, send) => send(),
  retry: () => undefined,
};

export interface ObservedCall {
  method: string;
  path: string;
  transactionRequestId?: string | undefined;
}

export interface CallTelemetry {
  /** Runs one logical call inside its span; `run` gets the observer its attempts report to. */
  traceCall<O extends ObservedOutcome>(call: ObservedCall, run: (observer: CallObserver) => Promise<O>): Promise<O>;
}

/**
 * The outcome dimension of a call: `unknown` is a write that may have been
 * processed without an answer (the webhook settles it), never a failure.
 */
function failureOutcome(error: unknown): string {
  if (error instanceof PaymentApiError) return 'api_error';
  if (error instanceof PaymentTimeoutError) return 'timeout';
  return 'error';
}

function errorCodeOf(error: unknown): string {
  return (error as Partial<PaymentError> | undefined)?.code ?? 'Error';
}

/**
 * Spans and metrics of the client's calls: one INTERNAL span per logical
 * call, with a CLIENT span per attempt (the HTTP request, named and
 * attributed as the HTTP semantic conventions say). `redact` cuts the
 * client's secrets out of the two strings taken from the service's answer.
 */
export function createCallTelemetry(option: PaymentTelemetry | undefined, baseUrl: string, redact: (text: string) => string): CallTelemetry | undefined {
  const telemetry = createTelemetry(option);
  if (telemetry === undefined) return undefined;
  const shapes = callShapes(serverAttributes(baseUrl));
  const { api, tracer, metered } = telemetry;
  return {
    traceCall(call, run) {
      const shape = shapes(call.method, call.path);
      const parent = api.context.active();
      const span = tracer.startSpan(shape.name, { kind: api.SpanKind.INTERNAL, attributes: shape.dimensions }, parent);
      // Nothing would be kept (no tracer provider registered or the trace sampled out, and no meter provider):
      // the call runs as with telemetry off. The tracer is asked each call, so a provider registered later applies.
      if (!metered && !span.isRecording()) return run(UNOBSERVED);
      return traceCall(telemetry, shape, redact, call, run, { span, parent });
    },
  };
}

/** What every call of one method and path shares: built once, since a client calls a handful of paths at a high rate. */
interface CallShape {
  name: string;
  attemptName: string;
  dimensions: Attributes;
  attemptAttributes: Attributes;
  /** The metric attributes of each outcome. */
  measured: (outcome: string) => Attributes;
}

function callShapes(server: Attributes): (method: string, path: string) => CallShape {
  const shapes = new Map<string, CallShape>();
  return (method, fullPath) => {
    const path = pathOnly(fullPath);
    const key = `${method} ${path}`;
    let shape = shapes.get(key);
    if (shape === undefined) {
      const dimensions: Attributes = { [ATTR.method]: method, [ATTR.path]: path };
      const byOutcome = new Map<string, Attributes>();
      shape = {
        name: `paymount ${key}`,
        attemptName: key,
        dimensions,
        attemptAttributes: { ...dimensions, ...server },
        measured: (outcome) => {
          let attributes = byOutcome.get(outcome);
          if (attributes === undefined) byOutcome.set(outcome, (attributes = { ...dimensions, [ATTR.outcome]: outcome }));
          return attributes;
        },
      };
      shapes.set(key, shape);
    }
    return shape;
  };
}

async function traceCall<O extends ObservedOutcome>(
  { api, tracer, instruments }: Telemetry,
  shape: CallShape,
  redact: (text: string) => string,
  call: ObservedCall,
  run: (observer: CallObserver) => Promise<O>,
  { span, parent }: { span: Span; parent: Context },
): Promise<O> {
  const { dimensions } = shape;
  if (call.transactionRequestId) span.setAttribute(ATTR.transactionRequestId, call.transactionRequestId);
  // A call span that records nothing (no tracer provider registered, or the sampler left this trace out)
  // would have attempt spans recording nothing too: the attempts then run bare, and only metrics are kept.
  const recording = span.isRecording();
  const callContext = recording ? api.trace.setSpan(parent, span) : parent;
  const serviceAnswer = (target: Span, envelope: { code: string; traceId?: string | undefined } | PaymentError) => {
    if (!recording) return;
    // The service's own code: an envelope's, or a refusal's `serviceCode` (paymount's code is `error.type`).
    const code = envelope instanceof PaymentError ? (envelope instanceof PaymentApiError ? envelope.serviceCode : undefined) : envelope.code;
    if (code !== undefined) target.setAttribute(ATTR.serviceCode, redact(code));
    if (envelope.traceId) target.setAttribute(ATTR.serviceTraceId, redact(envelope.traceId));
  };
  let attempts = 0;
  let retryReason: string | undefined;
  const retry = (reason: string) => {
    retryReason = reason;
    span.addEvent('paymount.retry', { [ATTR.retryReason]: reason, [ATTR.attempt]: attempts });
    instruments.retries.add(1, { ...dimensions, [ATTR.retryReason]: reason });
  };
  const observer: CallObserver = recording
    ? {
        async attempt(attempt, send) {
          attempts = attempt;
          const attemptSpan = tracer.startSpan(shape.attemptName, { kind: api.SpanKind.CLIENT, attributes: shape.attemptAttributes }, callContext);
          attemptSpan.setAttribute(ATTR.attempt, attempt);
          if (attempt > 1) attemptSpan.setAttribute(ATTR.resendCount, attempt - 1);
          if (retryReason !== undefined) attemptSpan.setAttribute(ATTR.retryReason, retryReason);
          try {
            const result = await api.context.with(api.trace.setSpan(callContext, attemptSpan), send);
            if (result.status) attemptSpan.setAttribute(ATTR.statusCode, result.status);
            if (result.ok) {
              serviceAnswer(attemptSpan, result.envelope);
            } else {
              serviceAnswer(attemptSpan, result.error);
              attemptSpan.setAttribute(ATTR.errorType, result.error.code);
              attemptSpan.setStatus({ code: api.SpanStatusCode.ERROR, message: result.error.code });
            }
            return result;
          } catch (error) {
            // Only the caller's abort gets here.
            attemptSpan.setAttribute(ATTR.errorType, errorCodeOf(error));
            attemptSpan.setStatus({ code: api.SpanStatusCode.ERROR, message: errorCodeOf(error) });
            throw error;
          } finally {
            attemptSpan.end();
          }
        },
        retry,
      }
    : {
        attempt(attempt, send) {
          attempts = attempt;
          return send();
        },
        retry,
      };

  const started = performance.now();
  let outcome = 'error';
  try {
    const result = await run(observer);
    if (result.kind === 'answered') {
      outcome = 'success';
      serviceAnswer(span, result.envelope);
    } else {
      outcome = 'unknown';
      serviceAnswer(span, result.error);
      span.setAttribute(ATTR.errorType, result.error.code);
    }
    return result;
  } catch (error) {
    outcome = failureOutcome(error);
    if (error instanceof PaymentApiError) serviceAnswer(span, error);
    span.setAttribute(ATTR.errorType, errorCodeOf(error));
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: errorCodeOf(error) });
    throw error;
  } finally {
    span.setAttribute(ATTR.outcome, outcome);
    span.setAttribute(ATTR.attempts, attempts);
    span.end();
    instruments.callDuration.record(secondsSince(started), shape.measured(outcome));
  }
}
