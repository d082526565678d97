/*
 * What verifying a webhook needs of the platform: its crypto, bound apart from
 * the platform object (current.ts) so that neither a bundle nor Node's loader
 * takes the transport (undici) along with it: `@paymount/core/webhooks` loads
 * this, not current.ts. The web build resolves this module to
 * current-verifier.web.ts (tsup.config.ts).
 */
export { nodeCrypto as platformCrypto } from './node/crypto';
