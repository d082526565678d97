import { createRequire } from 'node:module';
import type { OtelApi } from '../../telemetry/otel-api';

let loaded: OtelApi | null | undefined;

/**
 * `@opentelemetry/api`, or undefined when the app has not installed it (it is
 * an optional peer dependency). Required, not imported: a static import would
 * fail to load core without it, and a dynamic import() is asynchronous, so the
 * first calls would go untraced. Tried once per process.
 */
export function loadOtelApi(): OtelApi | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
