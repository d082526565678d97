/**
 * Where spans and metrics go. Typed structurally so that core's declarations
 * need no `@opentelemetry/api` import: a TracerProvider / MeterProvider of the
 * OpenTelemetry SDK fits.
 */
export interface PaymentTelemetryOptions {
  /**
   * The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`).
   * Needed off Node (Bun, Deno, workerd, the edge runtime), where paymount does
   * not load it by name; on Node it is loaded when installed.
   */
  api?: { trace: object; metrics: object; context: object };
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what the Node SDK registers). */
  tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /** Default: the global meter provider at the time the client or routes are created. */
  meterProvider?: { getMeter(name: string, version?: string): unknown };
}

/** `false` turns telemetry off: no span, no metric, and `@opentelemetry/api` is not even loaded. */
export type PaymentTelemetry = PaymentTelemetryOptions | false;
