// A span and metrics per client call.
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { PaymentApiError, PaymentError, PaymentTimeoutError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { PaymentTelemetry } from '../shared/types';
import { ATTR, createTelemetry, pathOnly, secondsSince, serverAttributes, type Telemetry } from './tracer';

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
export function createCallTelemetry(
  option: PaymentTelemetry | undefined,
  baseUrl: string,
  redact: (text: string) => string,
  logger: Logger,
): CallTelemetry | undefined {
  const telemetry = createTelemetry(option, logger);
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
      const recording = span.isRecording();
      if (!metered && !recording) return run(UNOBSERVED);
      return new TracedCall(telemetry, shape, redact, span, recording, parent).run(call, run);
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

/** Looked up by method, then path: the client's paths are constants, so a call neither joins nor hashes a new string. */
function callShapes(server: Attributes): (method: string, path: string) => CallShape {
  const byMethod = new Map<string, Map<string, CallShape>>();
  return (method, fullPath) => {
    const path = pathOnly(fullPath);
    let shapes = byMethod.get(method);
    if (shapes === undefined) byMethod.set(method, (shapes = new Map()));
    let shape = shapes.get(path);
    if (shape === undefined) {
      shape = callShape(method, path, server);
      shapes.set(path, shape);
    }
    return shape;
  };
}

function callShape(method: string, path: string, server: Attributes): CallShape {
  const key = `${method} ${path}`;
  const dimensions: Attributes = { [ATTR.method]: method, [ATTR.path]: path };
  const byOutcome = new Map<string, Attributes>();
  return {
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
}

/**
 * One traced call: its INTERNAL span, and the observer its attempts report
 * to. A class rather than closures over the call: every traced call builds
 * one, and the closures cost a call about as much as its span does (bench:
 * client-telemetry).
 */
class TracedCall implements CallObserver {
  private attempts = 0;
  private retryReason: string | undefined;
  /** The answer last put on a span, and its code and trace id redacted: the call's span repeats its last attempt's, which are redacted once. */
  private answered: { code: string; traceId?: string | undefined } | PaymentError | undefined;
  private answeredCode: string | undefined;
  private answeredTraceId: string | undefined;
  private readonly callContext: Context;

  /** `recording` false: a call span that records nothing (no tracer provider registered, or the sampler left this trace out) gets no attempt spans, only metrics are kept. */
  constructor(
    private readonly telemetry: Telemetry,
    private readonly shape: CallShape,
    private readonly redact: (text: string) => string,
    private readonly span: Span,
    private readonly recording: boolean,
    parent: Context,
  ) {
    this.callContext = recording ? telemetry.api.trace.setSpan(parent, span) : parent;
  }

  attempt<R extends ObservedAttempt>(attempt: number, send: () => Promise<R>): Promise<R> {
    this.attempts = attempt;
    return this.recording ? this.tracedAttempt(attempt, send) : send();
  }

  retry(reason: string): void {
    this.retryReason = reason;
    this.span.addEvent('paymount.retry', { [ATTR.retryReason]: reason, [ATTR.attempt]: this.attempts });
    this.telemetry.instruments.retries.add(1, { ...this.shape.dimensions, [ATTR.retryReason]: reason });
  }

  async run<O extends ObservedOutcome>(call: ObservedCall, run: (observer: CallObserver) => Promise<O>): Promise<O> {
    const { span } = this;
    const { api, instruments } = this.telemetry;
    if (call.transactionRequestId) span.setAttribute(ATTR.transactionRequestId, call.transactionRequestId);
    const started = performance.now();
    let outcome = 'error';
    try {
      const result = await run(this);
      if (result.kind === 'answered') {
        outcome = 'success';
        this.serviceAnswer(span, result.envelope);
      } else {
        outcome = 'unknown';
        this.serviceAnswer(span, result.error);
        span.setAttribute(ATTR.errorType, result.error.code);
      }
      return result;
    } catch (error) {
      outcome = failureOutcome(error);
      if (error instanceof PaymentApiError) this.serviceAnswer(span, error);
      span.setAttribute(ATTR.errorType, errorCodeOf(error));
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: errorCodeOf(error) });
      throw error;
    } finally {
      span.setAttribute(ATTR.outcome, outcome);
      span.setAttribute(ATTR.attempts, this.attempts);
      span.end();
      instruments.callDuration.record(secondsSince(started), this.shape.measured(outcome));
    }
  }

  private async tracedAttempt<R extends ObservedAttempt>(attempt: number, send: () => Promise<R>): Promise<R> {
    const { api, tracer } = this.telemetry;
    const attemptSpan = tracer.startSpan(this.shape.attemptName, { kind: api.SpanKind.CLIENT, attributes: this.shape.attemptAttributes }, this.callContext);
    attemptSpan.setAttribute(ATTR.attempt, attempt);
    if (attempt > 1) attemptSpan.setAttribute(ATTR.resendCount, attempt - 1);
    if (this.retryReason !== undefined) attemptSpan.setAttribute(ATTR.retryReason, this.retryReason);
    try {
      const result = await api.context.with(api.trace.setSpan(this.callContext, attemptSpan), send);
      if (result.status) attemptSpan.setAttribute(ATTR.statusCode, result.status);
      if (result.ok) {
        this.serviceAnswer(attemptSpan, result.envelope);
      } else {
        this.serviceAnswer(attemptSpan, result.error);
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
  }

  /** The service's own code (an envelope's, or a refusal's `serviceCode`: paymount's code is `error.type`) and trace id, on a recording span. */
  private serviceAnswer(target: Span, envelope: { code: string; traceId?: string | undefined } | PaymentError): void {
    if (!this.recording) return;
    if (envelope !== this.answered) {
      this.answered = envelope;
      const code = envelope instanceof PaymentError ? (envelope instanceof PaymentApiError ? envelope.serviceCode : undefined) : envelope.code;
      this.answeredCode = code === undefined ? undefined : this.redact(code);
      this.answeredTraceId = envelope.traceId ? this.redact(envelope.traceId) : undefined;
    }
    if (this.answeredCode !== undefined) target.setAttribute(ATTR.serviceCode, this.answeredCode);
    if (this.answeredTraceId !== undefined) target.setAttribute(ATTR.serviceTraceId, this.answeredTraceId);
  }
}
