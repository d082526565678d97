// `@paymount/core/internal` for Node: the portable list (internal.web.ts, which the web builds take
// alone, see tsup.config.ts) and the Node platform's parts, which the web builds must not import.
export * from './internal.web';
export { nodeCrypto } from '../platform/node/crypto';
export { createUndiciTransport } from '../platform/node';
