import { packageBuild } from '../../tools/tsup.shared';

// shims: the CJS build gets import.meta.url, which telemetry/load-api.ts resolves the optional peer from.
// One bundle per public entry, listed in package.json's `exports`. Shared code is split into common
// chunks so that every entry sees the same classes: a PaymentValidationError thrown by
// `@paymount/core/schemas`' `validate` is `instanceof` the root's.
export default packageBuild(
  {
    index: 'src/index.ts',
    schemas: 'src/entries/schemas.ts',
    http: 'src/entries/http.ts',
    stores: 'src/entries/stores.ts',
  },
  { splitting: true, shims: true },
);
