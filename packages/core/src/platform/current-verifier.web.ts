/* The web build's binding of current-verifier.ts (see tsup.config.ts): Web Crypto, no schema compiler. */
export { webCrypto as platformCrypto } from './web/crypto';
export { compileSchema } from './web/compile-schema';
