import * as z from 'zod/mini';
import type { PaymentTelemetryOptions } from '../types/telemetry';

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
