/* The web build's binding of current-verifier.ts (see tsup.config.ts): Web Crypto. */
export { webCrypto as platformCrypto } from './web/crypto';
