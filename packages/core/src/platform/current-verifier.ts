/*
 * What verifying a webhook needs of the platform: its crypto and its schema
 * compiler, bound apart from the platform object (current.ts) so that neither
 * a bundle nor Node's loader takes the transport (undici) along with them:
 * `@paymount/core/webhooks` loads this, not current.ts. The web build
 * resolves this module to current-verifier.web.ts (tsup.config.ts).
 */
export { nodeCrypto as platformCrypto } from './node/crypto';
export { compile as compileSchema } from 'zod/v4/core';
