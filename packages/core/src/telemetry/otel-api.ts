import type * as OtelApiModule from '@opentelemetry/api';

/** The `@opentelemetry/api` module, as `import * as api from '@opentelemetry/api'` gives it. */
export type OtelApi = typeof OtelApiModule;
