import { z } from 'zod';

/**
 * Where spans and metrics go. Typed structurally so that core's declarations
 * need no `@opentelemetry/api` import: a TracerProvider / MeterProvider of the
 * OpenTelemetry SDK fits.
 */
export interface PaymentTelemetryOptions {
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what the Node SDK registers). */
  tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /** Default: the global meter provider at the time the client or routes are created. */
  meterProvider?: { getMeter(name: string, version?: string): unknown };
}

/** `false` turns telemetry off: no span, no metric, and `@opentelemetry/api` is not even loaded. */
export type PaymentTelemetry = PaymentTelemetryOptions | false;

const providerWith = <T>(method: string) =>
  z
    .custom<T>(
      (value) => typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function',
      `must be an OpenTelemetry provider with a ${method}() method`,
    )
    .optional();

export const telemetryOptionsSchema = z
  .union(
    [
      z.literal(false),
      z.strictObject({
        tracerProvider: providerWith<NonNullable<PaymentTelemetryOptions['tracerProvider']>>('getTracer'),
        meterProvider: providerWith<NonNullable<PaymentTelemetryOptions['meterProvider']>>('getMeter'),
      }),
    ],
    'must be false or { tracerProvider?, meterProvider? }',
  )
  .optional();
