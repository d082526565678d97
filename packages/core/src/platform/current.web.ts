/* The web build's binding of current.ts (see tsup.config.ts): Web Crypto and fetch. */
export { webPlatform as platform } from './web';
export { webCrypto as platformCrypto } from './web/crypto';
export { compileSchema } from './web/compile-schema';
