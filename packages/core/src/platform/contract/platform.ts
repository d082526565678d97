// The platform as a whole: its crypto, its transport, and the OpenTelemetry API it can load. A module
// of its own because OtelApi names `@opentelemetry/api`, an optional peer: the public declarations
// (Transport, PlatformCrypto, ...) must not import it, or an app without it fails to compile them.
import type * as OtelApiModule from '@opentelemetry/api';
import type { PlatformCrypto, Transport, TransportOptions } from './index';

/** The `@opentelemetry/api` module, as `import * as api from '@opentelemetry/api'` gives it. */
export type OtelApi = typeof OtelApiModule;

export interface Platform {
  /** `node`: node:crypto and undici. `web`: Web Crypto and fetch (Bun, Deno, workerd, edge, browsers). */
  readonly name: 'node' | 'web';
  readonly crypto: PlatformCrypto;
  createTransport(options: TransportOptions): Transport;
  /** `@opentelemetry/api` when the platform can load it by itself and it is installed. */
  loadOtelApi(): OtelApi | undefined;
  /**
   * Why memory kept by one request may not be there for the next (a new
   * isolate per request), naming the runtime; undefined where one process
   * serves every request.
   */
  isolatedMemory(): string | undefined;
}
